# A minimal Django project running django-oauth-toolkit as a real OpenID provider for Warden's interop suite.
# Loopback only; throwaway keys; never deploy this.
import os

BASE_DIR = os.path.dirname(os.path.abspath(__file__))
SECRET_KEY = "interop-only-not-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
INSTALLED_APPS = [
    "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions", "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "urls"
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["DOT_DB"]}}
USE_TZ = True
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}]
OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": open(os.environ["DOT_KEY"]).read(),
    "PKCE_REQUIRED": True,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"],
    "SCOPES": {"openid": "OpenID", "profile": "Profile"},
    "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
    # OpenID Connect RP-Initiated Logout; no confirmation page when the id_token_hint names the signed-in user.
    "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
    # ID tokens on refresh too (server.py).
    "OAUTH2_SERVER_CLASS": "server.RefreshingIDTokenServer",
    "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": False,
}
LOGGING = {"version": 1, "disable_existing_loggers": True}
