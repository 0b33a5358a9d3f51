import os
import sys

import django

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
django.setup()
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from oauth2_provider.models import get_application_model  # noqa: E402

call_command("migrate", verbosity=0)
get_user_model().objects.create_user("alice", password="not-used")
Application = get_application_model()
Application.objects.create(
    client_id="warden-cli", name="warden", client_type=Application.CLIENT_PUBLIC,
    authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, redirect_uris="http://127.0.0.1/callback",
    post_logout_redirect_uris="http://127.0.0.1/logged-out",
    skip_authorization=True, algorithm=Application.RS256_ALGORITHM, client_secret="",
)
print("provider configured")
