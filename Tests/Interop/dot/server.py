"""django-oauth-toolkit's OpenID server with oauthlib's own OpenID refresh grant.

oauthlib 3.2's preconfigured OpenID `Server` refreshes with the plain OAuth 2 grant, which returns no ID token;
oauthlib's `openid.connect.core.grant_types.RefreshTokenGrant` returns one (OpenID Connect Core §12.2), minted and
signed by django-oauth-toolkit's validator like every other ID token. Real providers refresh ID tokens, so the
interop suite runs this one."""
from oauthlib.openid import Server
from oauthlib.openid.connect.core.grant_types import RefreshTokenGrant


class RefreshingIDTokenServer(Server):
    def __init__(self, request_validator, *args, **kwargs):
        super().__init__(request_validator, *args, **kwargs)
        self._grant_types["refresh_token"] = RefreshTokenGrant(request_validator)
