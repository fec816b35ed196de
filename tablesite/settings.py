"""Django settings, read from the environment.

Environment variables (see README):
    DATABASE_URL          postgres://user:pass@host:port/dbname (required, PostgreSQL
                          only; falls back to a running embedded dev server, see devdb)
    REDIS_URL             redis://host:port/0 -> channels-redis; unset -> in-memory layer
    SECRET_KEY            required when DEBUG is false
    DEBUG                 true/false (default false)
    ALLOWED_HOSTS         comma-separated host names
    CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. https://dominoes.example.org
    SECURE_SSL_REDIRECT   default: true when DEBUG is false
    SECURE_PROXY_SSL_HEADER_NAME  e.g. HTTP_X_FORWARDED_PROTO behind a TLS proxy
    EMAIL_URL             smtp://user:password@host:587/?tls=True (or EMAIL_HOST, EMAIL_PORT,
                          EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS); console in DEBUG
    EMAIL_TIMEOUT         seconds each exchange with the mail server may take (default 10)
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from tablesite import devdb
from tablesite.env import channel_layers, database, email, env_bool, env_list

BASE_DIR = Path(__file__).resolve().parent.parent
ENV = os.environ

DEBUG = env_bool(ENV, "DEBUG", False)

SECRET_KEY = ENV.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=true for local development).")
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list(ENV, "ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list(ENV, "CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",  # first: its runserver replaces Django's, serving HTTP and websockets
    "servestatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",  # login throttling (see AXES_* below)
    "csp",  # Content-Security-Policy (see CONTENT_SECURITY_POLICY below)
    "accounts",
    "games",
    "games.table",  # the live table: its commands register what they declare (games/table/)
    "games.history",  # replays, scores, stats, ratings (games/history/)
    "games.chat",  # table talk: phrases in each reader's language, free text, mutes, reports (games/chat/)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "servestatic.middleware.ServeStaticMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.middleware.GuestSeenMiddleware",  # when a guest was last seen (remove_guests)
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a lockout into the lockout page
]

ROOT_URLCONF = "tablesite.urls"
ASGI_APPLICATION = "tablesite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # the your-turn count in the site's menu
                "games.lobby.context_processors.your_turns",
            ],
            # {% load assets %}{% scripts "table" %}: a page's scripts, bundled in production
            "libraries": {"assets": "tablesite.assets"},
        },
    },
    {
        # The board (games/jinja2/games/board.html), re-rendered per connection after
        # every move: Jinja2 renders it about three times faster (games/board/jinja_env.py).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [],
        "APP_DIRS": True,  # <app>/jinja2/
        "OPTIONS": {"environment": "games.board.jinja_env.environment", "autoescape": True},
    },
]

# --- data -------------------------------------------------------------------
# PostgreSQL only: the game's services lock match rows (SELECT ... FOR UPDATE).
_database_url = ENV.get("DATABASE_URL") or devdb.running_url()
if not _database_url:
    raise ImproperlyConfigured(
        "Set DATABASE_URL to a PostgreSQL server (postgres://user@host:port/db), "
        "or start the embedded one: `python -m tablesite.devdb start` "
        "(`bash .ci/serve` and `bash .ci/test` do this for you)."
    )
DATABASES = {"default": database(_database_url, conn_max_age=int(ENV.get("CONN_MAX_AGE", "0")))}
if ENV.get("TEST_DATABASE_NAME"):
    # Lets several test runs share one server without dropping each other's database.
    DATABASES["default"]["TEST"] = {"NAME": ENV["TEST_DATABASE_NAME"]}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Bytes a request body may hold, refused with 413 before it is read (tablesite/edge.py, the
# site's daphne, the proxy): Django's own in-memory limit, above a replay upload's 2 MB.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
REQUEST_BODY_MAX = int(ENV.get("REQUEST_BODY_MAX", str(DATA_UPLOAD_MAX_MEMORY_SIZE)))

REDIS_URL = ENV.get("REDIS_URL") or None
CHANNEL_LAYERS = channel_layers(REDIS_URL)

# Computer players (games/worker/): seconds between two computer actions of one
# match, so people can follow them; COMPUTER_WORKER=off keeps servers from running them.
COMPUTER_DELAY = float(ENV.get("COMPUTER_DELAY", "0.6"))
# Seconds a person's pause of the computers (an open panel, R26) holds once its page stops
# renewing it (games.reads.selectors.PAUSE_TIMEOUT): keep it above twice the page's renewal (10 s).
PAUSE_TIMEOUT = float(ENV.get("PAUSE_TIMEOUT", "30"))
# Seconds a server starting asks again for the computers' lock another session holds
# (games/worker/leader.py): the session of a process killed a moment ago ends once
# PostgreSQL sees its connection closed.
COMPUTER_LOCK_WAIT = float(ENV.get("COMPUTER_LOCK_WAIT", "10"))

# --- accounts ---------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a locked-out username + address before any password check.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling: the 5th wrong password for one username from one address locks that
# pair out for 15 minutes (429 and a translated page); the 30th from one address across
# any names (password spraying) locks the address out (accounts/lockout.py). The address
# is REMOTE_ADDR: behind a reverse proxy run daphne with --proxy-headers (README), or
# every visitor shares the proxy's address. Failures are not wiped by a success: with the
# address counted, one's own good password would otherwise wipe the address's count too;
# they age out after the cool-off instead.
AXES_FAILURE_LIMIT = "accounts.lockout.failure_limit"
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"  # the page says which lock holds
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- languages --------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("de", _("German")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- static files -----------------------------------------------------------
# Served by ServeStatic (a WhiteNoise fork that is ASGI-native) from daphne itself.
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # In development files come straight from static/ (no collectstatic);
        # in production from STATIC_ROOT minified, bundled, with hashed, compressed
        # names (tablesite/assets.py: ServeStatic's CompressedManifestStaticFilesStorage
        # after calmjs.parse/rcssmin).
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "tablesite.assets.Storage"
        ),
    },
}

# Decided here (not from settings.DEBUG at request time) so that tests, which
# always run with DEBUG off, still serve from static/ in a development checkout.
SERVESTATIC_USE_FINDERS = DEBUG
SERVESTATIC_AUTOREFRESH = DEBUG

# --- security ---------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool(ENV, "SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(ENV.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool(ENV, "SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool(ENV, "SECURE_HSTS_PRELOAD", True)
    _proxy_header = ENV.get("SECURE_PROXY_SSL_HEADER_NAME")
    if _proxy_header:
        SECURE_PROXY_SSL_HEADER = (_proxy_header, "https")

# A second wall behind the templates' escaping: no script but the site's own files (no
# inline <script>, no on...= handlers), no style but the site's stylesheets (no <style>
# element, no style="..." attribute: what a page computes — a seat's colour, a count —
# reaches the stylesheets as a class or a data-* attribute; scripts may still set
# element.style, which the policy does not govern), no plugins, no framing, forms and
# websockets only to this site.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Refusals (admin 403s, RequestDataTooBig...) in one line, without a traceback (tablesite/edge.py).
    "filters": {"one_line_refusals": {"()": "tablesite.edge.OneLineRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["one_line_refusals"]}},
    "root": {"handlers": ["console"], "level": ENV.get("LOG_LEVEL", "INFO")},
    "loggers": {"django": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}

# E-mail (turn e-mails, games/history/mail.py; address confirmation, accounts/emails.py):
# EMAIL_URL or EMAIL_HOST/PORT/HOST_USER/HOST_PASSWORD/USE_TLS (tablesite.env.email); the
# console in development when neither is set, SMTP otherwise.
_email = email(ENV, debug=DEBUG)
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _email.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _email.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _email.get("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = _email["EMAIL_TIMEOUT"]
if _email.get("EMAIL_FILE_PATH"):
    EMAIL_FILE_PATH = _email["EMAIL_FILE_PATH"]
#: days an e-mail confirmation link works (accounts/emails.py)
EMAIL_CONFIRM_DAYS = int(ENV.get("EMAIL_CONFIRM_DAYS", "3"))
DEFAULT_FROM_EMAIL = ENV.get("DEFAULT_FROM_EMAIL", "Mexican Train <noreply@localhost>")
#: the site's address in e-mails (links to the table and to unsubscribe); unset (""), an e-mail
#: sent while answering a request links to the host that request came to (accounts/emails.py),
#: and one sent by the worker to SITE_FALLBACK
SITE_URL = ENV.get("SITE_URL", "")
SITE_FALLBACK = "http://127.0.0.1:8000"
