"""Production's static files (tablesite/assets.py): minified, the table's scripts in one
bundle, hashed; development serves each file as it is."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse

from games.services import SeatSpec
from tablesite.assets import BUNDLES, minify
from tests import seeded

PRODUCTION = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "tablesite.assets.Storage"},
}


def source(name: str) -> str:
    path = finders.find(name)
    assert path, name
    return Path(path).read_text()


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("static")
    with override_settings(STATIC_ROOT=root, STORAGES=PRODUCTION):
        call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])
    return root


def manifest(root: Path) -> dict[str, str]:
    return dict(json.loads((root / "staticfiles.json").read_text())["paths"])


def test_the_table_bundle_holds_its_files_minified_in_order(collected: Path) -> None:
    paths = manifest(collected)
    bundle = (collected / paths["bundles/table.js"]).read_text()
    members = [minify(name, source(name)) for name in BUNDLES["table"]]
    at = [bundle.index(m) for m in members]  # each file whole, minified
    assert at == sorted(at)  # in the order they ran as separate scripts
    assert len(bundle) < sum(len(source(n)) for n in BUNDLES["table"]) * 0.8
    assert "/* The log and rules drawers." not in bundle  # comments go
    assert bundle.startswith("/*! idiomorph")  # licence notices stay


def test_stylesheets_are_minified_and_their_urls_hashed(collected: Path) -> None:
    paths = manifest(collected)
    for name in ("css/site.css", "css/board.css"):
        text = (collected / paths[name]).read_text()
        assert len(text) < len(source(name)) * 0.85 and "/*" not in text.replace("/*!", "")
        for url in re.findall(r"url\(['\"]?(?!data:)([^'\")]+)", text):
            assert re.search(r"\.[0-9a-f]{12}\.", url), url  # the manifest's hashed name


@pytest.mark.django_db
def test_the_table_page_loads_one_bundle_in_production_each_file_in_development(
    collected: Path, django_user_model: Any
) -> None:
    alice = django_user_model.objects.create_user("alice")
    match = seeded.match_create(
        creator=alice, seats=[SeatSpec("me"), SeatSpec("computer", level="casual")], seed=1
    )
    client = Client()
    client.force_login(alice)
    url = reverse("games:table", args=[match.pk])

    def scripts() -> list[str]:
        html = client.get(url).content.decode()
        assert "<script>" not in html  # the CSP allows no inline script
        return re.findall(r'<script src="/static/([^"]+)" defer></script>', html)

    def lazy() -> dict[str, str]:  # the scripts static/js/lazy.js loads on first use
        return dict(
            re.findall(r'data-lazy-(\w+)="/static/([^"]+)"', client.get(url).content.decode())
        )

    with override_settings(STATIC_ROOT=collected, STORAGES=PRODUCTION):
        assert scripts() == [
            manifest(collected)["js/menu.js"],
            manifest(collected)["bundles/table.js"],
        ]
        on_first_use = lazy()
        assert on_first_use == {
            n: manifest(collected)[f"js/{n}.js"] for n in ("panels", "sound", "notify")
        }
        for name in on_first_use.values():  # minified, hashed, there
            assert (collected / name).stat().st_size < len(source(name.split(".")[0] + ".js"))
    assert scripts() == ["js/menu.js", *BUNDLES["table"]]
    assert lazy() == {n: f"js/{n}.js" for n in ("panels", "sound", "notify")}
    assert not {f"js/{n}.js" for n in ("panels", "sound", "notify")} & set(BUNDLES["table"])


def test_scripts_lose_their_local_names_not_what_files_share() -> None:
    src = (
        '/*! notice */\n(function () {\n  "use strict";\n  var MT = window.MT = window.MT || {};\n'
        "  function selectedTile(board) { return board.dataset.selectedTile; }\n"
        "  MT.selected = selectedTile;\n})();\n"
    )
    out = minify("js/x.js", src)
    assert out.startswith("/*! notice */\n")
    assert "selectedTile(" not in out and "board" not in out  # local names shortened
    assert "window.MT" in out and "MT.selected" not in out and ".selected=" in out
    assert ".dataset.selectedTile" in out and '"use strict"' in out  # properties stay
    with pytest.raises(ValueError, match=r"js/x\.js: not ES5"):
        minify(
            "js/x.js", "const pick = (board) => board.dataset.tile;"
        )  # clear error at collectstatic
