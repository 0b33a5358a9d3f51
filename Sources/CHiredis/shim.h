// hiredis (Debian libhiredis-dev), the Redis client WardenRedis uses. Server-side only: no Apple target links it.
#include <hiredis/hiredis.h>
