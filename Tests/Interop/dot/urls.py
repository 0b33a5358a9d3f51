import datetime

from django.contrib.auth import get_user_model, login
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import include, path
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme


def login_test_user(request):
    """The scripted user agent 'types the password' by calling this loopback-only view."""
    user = get_user_model().objects.get(username="alice")
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return HttpResponse("ok")


def login_page(request):
    """Django's LOGIN_URL, where django-oauth-toolkit sends prompt=login: authenticates anew, then goes on."""
    login_test_user(request)
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    return HttpResponseRedirect(target)


def age_login(request):
    """Moves alice's last authentication (the ID token's auth_time) an hour into the past."""
    get_user_model().objects.filter(username="alice").update(last_login=timezone.now() - datetime.timedelta(hours=1))
    return HttpResponse("ok")


urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("login-test/", login_test_user),
    path("accounts/login/", login_page),
    path("age-login/", age_login),
]
