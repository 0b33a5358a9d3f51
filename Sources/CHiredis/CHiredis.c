// hiredis loaded at run time; see include/CHiredis.h.
#include "CHiredis.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// hiredis 0.14's redisReply (hiredis.h).
typedef struct reply014 {
    int type;
    long long integer;
    size_t len;
    char *str;
    size_t elements;
    struct reply014 **element;
} reply014;

// hiredis 1.x's redisReply (hiredis.h): `dval` and `vtype` were added.
typedef struct reply1 {
    int type;
    long long integer;
    double dval;
    size_t len;
    char *str;
    char vtype[4];
    size_t elements;
    struct reply1 **element;
} reply1;

// The prefix both versions' redisReader share (read.h): the error, then the buffer and its cursor.
typedef struct {
    int err;
    char errstr[128];
    char *buf;
    size_t pos;
    size_t len;
} reader_prefix;

// hiredis 1.x's redisReader begins the same, then `maxbuf` and `maxelements` (read.h): the largest aggregate it
// allocates for. 0.14 has no such field; its arrays are bounded by the bytes Warden feeds it (see
// RedisReplyReader) and by calloc, which refuses what cannot be had.
typedef struct {
    int err;
    char errstr[128];
    char *buf;
    size_t pos;
    size_t len;
    size_t maxbuf;
    long long maxelements;
} reader1_prefix;

/// The largest array a reply may announce: Warden's replies hold a handful of elements.
static const long long max_elements = 1024;

static struct {
    void *(*reader_create)(void);
    void (*reader_free)(void *);
    int (*reader_feed)(void *, const char *, size_t);
    int (*reader_get_reply)(void *, void **);
    void (*free_reply)(void *);
    /// `redisFormatCommandArgv` returns `int` in 0.14 and `long long` in 1.x: one pointer per signature.
    int (*format_argv_014)(char **, int, const char **, const size_t *);
    long long (*format_argv_1)(char **, int, const char **, const size_t *);
    void (*free_command)(char *);
} lib;

static int loaded;
static int v1;
static char load_error[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/// Where the library is: Debian 13's and 12's run-time packages, an unversioned link, Homebrew on both Mac kinds.
static const char *const candidates[] = {
    "libhiredis.so.1.1.0", "libhiredis.so.1.0.0", "libhiredis.so.0.14", "libhiredis.so",
    "libhiredis.dylib", "/opt/homebrew/lib/libhiredis.dylib", "/usr/local/lib/libhiredis.dylib",
};

static int bind_symbol(void *handle, void **slot, const char *name) {
    *slot = dlsym(handle, name);
    if (*slot == NULL) {
        snprintf(load_error, sizeof load_error, "libhiredis has no %s", name);
        return 0;
    }
    return 1;
}

static void load_once(void) {
    void *handle = NULL;
    // WARDEN_HIREDIS_LIBRARY names the one library to load (hiredis installed elsewhere, or a test proving the
    // error a machine without it gets).
    const char *chosen = getenv("WARDEN_HIREDIS_LIBRARY");
    if (chosen != NULL && chosen[0] != 0) {
        handle = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
    } else {
        for (size_t index = 0; index < sizeof candidates / sizeof candidates[0] && handle == NULL; index++) {
            handle = dlopen(candidates[index], RTLD_NOW | RTLD_LOCAL);
        }
    }
    if (handle == NULL) {
        snprintf(load_error, sizeof load_error, "libhiredis was not found");
        return;
    }
#define BIND(field, name) if (!bind_symbol(handle, (void **)&lib.field, name)) return;
    BIND(reader_create, "redisReaderCreate")
    BIND(reader_free, "redisReaderFree")
    BIND(reader_feed, "redisReaderFeed")
    BIND(reader_get_reply, "redisReaderGetReply")
    BIND(free_reply, "freeReplyObject")
    BIND(free_command, "redisFreeCommand")
    v1 = dlsym(handle, "redisConnectWithOptions") != NULL;
    if (v1) {
        BIND(format_argv_1, "redisFormatCommandArgv")
    } else {
        BIND(format_argv_014, "redisFormatCommandArgv")
    }
#undef BIND
    loaded = 1;
}

int warden_hiredis_load(char *reason, size_t reason_size) {
    pthread_once(&once, load_once);
    if (!loaded && reason != NULL && reason_size > 0) snprintf(reason, reason_size, "%s", load_error);
    return loaded;
}

int warden_hiredis_is_v1(void) { return loaded && v1; }

void *warden_hiredis_reader_new(void) {
    if (!loaded) return NULL;
    void *reader = lib.reader_create();
    if (reader != NULL && v1) ((reader1_prefix *)reader)->maxelements = max_elements;
    return reader;
}

void warden_hiredis_reader_free(void *reader) {
    if (loaded && reader != NULL) lib.reader_free(reader);
}

int warden_hiredis_reader_feed(void *reader, const char *bytes, size_t count) {
    return lib.reader_feed(reader, bytes, count) == 0 ? 0 : -1;
}

int warden_hiredis_reader_next(void *reader, void **reply, char *error, size_t error_size) {
    *reply = NULL;
    if (lib.reader_get_reply(reader, reply) != 0) {
        const reader_prefix *prefix = reader;
        if (error != NULL && error_size > 0) snprintf(error, error_size, "%.127s", prefix->errstr);
        return -1;
    }
    return *reply != NULL ? 1 : 0;
}

size_t warden_hiredis_reader_unread(void *reader) {
    const reader_prefix *prefix = reader;
    return prefix->buf == NULL || prefix->len < prefix->pos ? 0 : prefix->len - prefix->pos;
}

void warden_hiredis_value(const void *reply, warden_redis_value *value) {
    memset(value, 0, sizeof *value);
    if (v1) {
        const reply1 *node = reply;
        value->type = node->type;
        value->integer = node->integer;
        value->str = node->str;
        value->len = node->str != NULL ? node->len : 0;
        value->elements = node->element != NULL ? node->elements : 0;
    } else {
        const reply014 *node = reply;
        value->type = node->type;
        value->integer = node->integer;
        value->str = node->str;
        value->len = node->str != NULL ? node->len : 0;
        value->elements = node->element != NULL ? node->elements : 0;
    }
}

const void *warden_hiredis_element(const void *reply, size_t index) {
    if (v1) {
        const reply1 *node = reply;
        return node->element != NULL && index < node->elements ? node->element[index] : NULL;
    }
    const reply014 *node = reply;
    return node->element != NULL && index < node->elements ? node->element[index] : NULL;
}

void warden_hiredis_reply_free(void *reply) {
    if (loaded && reply != NULL) lib.free_reply(reply);
}

long long warden_hiredis_format(char **target, int argc, const char **argv, const size_t *lengths) {
    *target = NULL;
    if (!loaded) return -1;
    return v1 ? lib.format_argv_1(target, argc, argv, lengths) : lib.format_argv_014(target, argc, argv, lengths);
}

void warden_hiredis_command_free(char *command) {
    if (loaded && command != NULL) lib.free_command(command);
}
