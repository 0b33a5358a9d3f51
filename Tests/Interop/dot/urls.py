from django.contrib.auth import get_user_model, login
from django.http import HttpResponse
from django.urls import include, path


def login_test_user(request):
    """The scripted user agent 'types the password' by calling this loopback-only view."""
    user = get_user_model().objects.get(username="alice")
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return HttpResponse("ok")


urlpatterns = [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("login-test/", login_test_user),
]
