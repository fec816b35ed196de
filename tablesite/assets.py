"""The site's scripts and stylesheets as production serves them: minified, bundled, hashed.

- `BUNDLES`: the scripts a page loads together, in the order they run (each file's
  docstring says what it does and what it needs from the ones before it).
- `Storage`, the production static files storage (settings.STORAGES when DEBUG is off):
  ServeStatic's CompressedManifestStaticFilesStorage (hashed names, so a year's cache;
  gzip and brotli copies) that first minifies the site's own scripts (js/) and
  stylesheets (css/) in STATIC_ROOT and writes each bundle, ``bundles/<name>.js``: its
  files, minified, one after another. Stylesheets: rcssmin (whitespace and comments).
  Scripts: calmjs.parse reads each as ES5 and prints it without whitespace and comments,
  its local names (inside each file's function) shortened; global names and properties
  stay, so what the files share (``window.MT``, the DOM, data attributes) is untouched.
  A script it cannot read as ES5 stops collectstatic with the file's name (the site's
  scripts are ES5: no build step). ``/*! ... */`` notices are kept, first.
- `{% load assets %}{% scripts "table" %}`: the script tags for a bundle (deferred, so
  they run in document order after parsing, as the separate files did): the one bundle
  file under `Storage`; each file on its own in development and tests (DEBUG: files
  straight from static/), so a change shows on reload and a failure names its file.

A script in a bundle runs in the same order and scope as it did as a file of its own:
every file is a classic script wrapped in its own function, sharing only `window.MT`.
One that throws at start stops the files after it in its bundle, which is why the
browser tests in development load them separately and bench/page.py reports the page
errors of the production pages.
"""

from __future__ import annotations

import re
from typing import Any

import rcssmin
from calmjs.parse import es5
from calmjs.parse.exceptions import ECMASyntaxError
from calmjs.parse.unparsers.es5 import minify_print
from django import template
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.files.base import ContentFile
from django.templatetags.static import static
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from servestatic.storage import CompressedManifestStaticFilesStorage

#: bundle name -> its files under static/, in the order they run
BUNDLES: dict[str, list[str]] = {
    # the live table (templates/games/table.html): idiomorph first (table.js morphs with
    # it), then the scripts that hang their parts on window.MT, table.js that connects,
    # and those that use what table.js set up
    "table": [
        "vendor/idiomorph.min.js",
        "js/hand.js",
        "js/actions.js",
        "js/relay.js",
        "js/lazy.js",  # loads js/panels.js, js/sound.js and js/notify.js on first use
        "js/keys.js",
        "js/pace.js",
        "js/standin.js",
        "js/table.js",
        "js/chat.js",  # table talk (games/chat): its own frames, never the board
        "js/messages.js",
        "js/tips.js",
        "js/localtime.js",
        "js/cando.js",
    ],
}

#: the folders of the site's own files (Django's admin files are left as they come)
OWN = ("js/", "css/", "vendor/")


def minify(name: str, text: str) -> str:
    """`text` of the file `name` without comments and needless whitespace (notices kept)."""
    if name.endswith(".min.js"):
        return text
    if name.endswith(".js"):
        notices = "".join(m + "\n" for m in re.findall(r"/\*!.*?\*/", text, flags=re.S))
        try:
            tree = es5(text)
        except ECMASyntaxError as e:
            raise ValueError(f"{name}: not ES5, cannot be minified: {e}") from e
        return notices + str(minify_print(tree, obfuscate=True, obfuscate_globals=False))
    if name.endswith(".css"):
        return str(rcssmin.cssmin(text, keep_bang_comments=True))
    return text


class Storage(CompressedManifestStaticFilesStorage):
    """Minify, bundle, then hash and compress (see the module's docstring)."""

    #: read by {% scripts %}: this storage serves the bundles
    bundles = True

    def post_process(self, paths: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("dry_run"):
            self._minify_and_bundle(paths)
        yield from super().post_process(paths, *args, **kwargs)

    def _write(self, name: str, text: str) -> None:
        if self.exists(name):
            self.delete(name)
        self.save(name, ContentFile(text.encode()))

    def _minify_and_bundle(self, paths: dict[str, Any]) -> None:
        minified: dict[str, str] = {}
        for name in sorted(paths):
            if name.startswith(OWN) and name.endswith((".js", ".css")):
                source_storage, path = paths[name]
                with source_storage.open(path) as f:
                    minified[name] = minify(name, f.read().decode())
                self._write(name, minified[name])
                paths[name] = (self, name)  # the hashing reads from here, not from static/
        for bundle, files in BUNDLES.items():
            missing = [f for f in files if f not in minified]
            if missing:
                raise ValueError(f"bundle {bundle!r}: no such static files: {missing}")
            name = f"bundles/{bundle}.js"
            # ";" between files: a file that ends without one cannot run into the next
            self._write(name, "\n;".join(minified[f] for f in files) + "\n")
            paths[name] = (self, name)


register = template.Library()


@register.simple_tag
def scripts(bundle: str) -> SafeString:
    """The deferred <script> tags of `bundle`: one file in production, each file in development."""
    files = (
        [f"bundles/{bundle}.js"]
        if getattr(staticfiles_storage, "bundles", False)
        else BUNDLES[bundle]
    )
    return format_html_join("\n", '<script src="{}" defer></script>', ((static(f),) for f in files))
