// hiredis loaded at run time (dlopen), as libsecret is, so building Warden needs no hiredis headers, pkg-config or
// Homebrew: `swift run warden demo` builds with the toolchain (and libssl-dev on Linux) alone, and a Redis feature
// used without the library is a clear error naming the package.
//
// Only hiredis' protocol half is bound: the command formatter and the reply reader. Warden does its own socket I/O,
// so that a command is bounded as a whole (one deadline for writing and reading, a byte cap on the reply) and a
// connection that sends anything unasked is discarded; hiredis' blocking context bounds each read() only.
//
// The reply and reader layouts differ between hiredis 0.14 (Debian 12) and 1.x (Debian 13, Homebrew); this shim
// declares both from their public headers (hiredis.h, read.h), picks one by what the loaded library exports
// (`redisConnectWithOptions` exists from 1.0 on), and hands Swift one normalised view.
#ifndef WARDEN_CHIREDIS_H
#define WARDEN_CHIREDIS_H
#include <stddef.h>

/// REDIS_REPLY_* of read.h (RESP2; the RESP3 types of 1.x are reported as they come and refused by the caller).
enum {
    WARDEN_REDIS_STRING = 1,
    WARDEN_REDIS_ARRAY = 2,
    WARDEN_REDIS_INTEGER = 3,
    WARDEN_REDIS_NIL = 4,
    WARDEN_REDIS_STATUS = 5,
    WARDEN_REDIS_ERROR = 6,
};

/// One reply node, normalised across hiredis versions. `str` and `len` for strings, statuses and errors;
/// `elements` for arrays (read each with warden_hiredis_element).
typedef struct {
    int type;
    long long integer;
    const char *str;
    size_t len;
    size_t elements;
} warden_redis_value;

/// Loads libhiredis and resolves every symbol once (thread-safe). 1 when usable; 0 otherwise, with the reason
/// (dlopen's text, or the symbol missing) copied into `reason` when it is not NULL.
int warden_hiredis_load(char *reason, size_t reason_size);
/// 1 for hiredis 1.x layouts, 0 for 0.14 (after a successful load).
int warden_hiredis_is_v1(void);

/// A new reply reader, or NULL (not loaded, or out of memory).
void *warden_hiredis_reader_new(void);
void warden_hiredis_reader_free(void *reader);
/// Appends bytes to the reader's buffer: 0, or -1 on error.
int warden_hiredis_reader_feed(void *reader, const char *bytes, size_t count);
/// 1 with a complete reply in `*reply` (free it with warden_hiredis_reply_free), 0 when more bytes are needed,
/// -1 on a protocol error (the reader's message copied into `error`).
int warden_hiredis_reader_next(void *reader, void **reply, char *error, size_t error_size);
/// How many fed bytes the reader has not consumed yet.
size_t warden_hiredis_reader_unread(void *reader);

/// The node `reply` (a reply, or an element of one), normalised.
void warden_hiredis_value(const void *reply, warden_redis_value *value);
/// Element `index` of an array node (NULL when out of range).
const void *warden_hiredis_element(const void *reply, size_t index);
void warden_hiredis_reply_free(void *reply);

/// The RESP encoding of a command (binary-safe arguments) in `*target`, its length returned; -1 on failure.
/// Free it with warden_hiredis_command_free.
long long warden_hiredis_format(char **target, int argc, const char **argv, const size_t *lengths);
void warden_hiredis_command_free(char *command);

#endif
