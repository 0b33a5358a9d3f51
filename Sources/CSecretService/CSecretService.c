// libsecret loaded at run time; see include/CSecretService.h. Linux only: on other systems every call reports
// "not loaded" (WardenStorage never calls it there).
#include "CSecretService.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// GLib/libsecret ABI, from their public headers (glib/gerror.h, glib/glist.h, libsecret/secret-types.h).
typedef unsigned int GQuark;
typedef struct { GQuark domain; int code; char *message; } GError;
typedef struct GList { void *data; struct GList *next; struct GList *prev; } GList;
typedef void GHashTable;
typedef unsigned long GType;
enum { SECRET_SCHEMA_NONE = 0, SECRET_SCHEMA_ATTRIBUTE_STRING = 0 };
enum { SECRET_SEARCH_NONE = 0, SECRET_SEARCH_ALL = 1 << 1 };
enum { SECRET_ERROR_IS_LOCKED = 2, G_IO_ERROR_CANCELLED = 19 };

static struct {
    GHashTable *(*hash_table_new_full)(unsigned (*)(const void *), int (*)(const void *, const void *),
                                       void (*)(void *), void (*)(void *));
    unsigned (*str_hash)(const void *);
    int (*str_equal)(const void *, const void *);
    void (*hash_table_insert)(GHashTable *, void *, void *);
    void *(*hash_table_lookup)(GHashTable *, const void *);
    void (*hash_table_unref)(GHashTable *);
    void (*free)(void *);
    char *(*strdup)(const char *);
    void (*error_free)(GError *);
    void (*list_free_full)(GList *, void (*)(void *));
    void *(*object_ref)(void *);
    void (*object_unref)(void *);
    int (*type_check_instance_is_a)(void *, GType);
    GQuark (*dbus_error_quark)(void);
    GQuark (*io_error_quark)(void);
    void *(*cancellable_new)(void);
    void (*cancellable_cancel)(void *);
    GQuark (*secret_error_get_quark)(void);
    void *(*schema_newv)(const char *, int, GHashTable *);
    int (*storev_sync)(const void *, GHashTable *, const char *, const char *, const char *, void *, GError **);
    char *(*lookupv_sync)(const void *, GHashTable *, void *, GError **);
    int (*clearv_sync)(const void *, GHashTable *, void *, GError **);
    GList *(*searchv_sync)(const void *, GHashTable *, int, void *, GError **);
    void (*password_free)(char *);
    GHashTable *(*retrievable_get_attributes)(void *);
    GType (*item_get_type)(void);
    int (*item_get_locked)(void *);
} lib;

static void *schema;
static int loaded;
static char load_error[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int bind(void *handle, void **slot, const char *name) {
    *slot = dlsym(handle, name);
    if (*slot == NULL) {
        snprintf(load_error, sizeof load_error, "libsecret-1.so.0 has no %s", name);
        return 0;
    }
    return 1;
}

static void load_once(void) {
    void *handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "libsecret-1.so.0 not found");
        return;
    }
    // dlsym on libsecret's handle also searches the libraries it depends on (GLib, GObject, GIO).
#define BIND(field, name) if (!bind(handle, (void **)&lib.field, name)) return;
    BIND(hash_table_new_full, "g_hash_table_new_full")
    BIND(str_hash, "g_str_hash")
    BIND(str_equal, "g_str_equal")
    BIND(hash_table_insert, "g_hash_table_insert")
    BIND(hash_table_lookup, "g_hash_table_lookup")
    BIND(hash_table_unref, "g_hash_table_unref")
    BIND(free, "g_free")
    BIND(strdup, "g_strdup")
    BIND(error_free, "g_error_free")
    BIND(list_free_full, "g_list_free_full")
    BIND(object_ref, "g_object_ref")
    BIND(object_unref, "g_object_unref")
    BIND(type_check_instance_is_a, "g_type_check_instance_is_a")
    BIND(dbus_error_quark, "g_dbus_error_quark")
    BIND(io_error_quark, "g_io_error_quark")
    BIND(cancellable_new, "g_cancellable_new")
    BIND(cancellable_cancel, "g_cancellable_cancel")
    BIND(secret_error_get_quark, "secret_error_get_quark")
    BIND(schema_newv, "secret_schema_newv")
    BIND(storev_sync, "secret_password_storev_sync")
    BIND(lookupv_sync, "secret_password_lookupv_sync")
    BIND(clearv_sync, "secret_password_clearv_sync")
    BIND(searchv_sync, "secret_password_searchv_sync")
    BIND(password_free, "secret_password_free")
    BIND(retrievable_get_attributes, "secret_retrievable_get_attributes")
    BIND(item_get_type, "secret_item_get_type")
    BIND(item_get_locked, "secret_item_get_locked")
#undef BIND
    GHashTable *types = lib.hash_table_new_full(lib.str_hash, lib.str_equal, lib.free, NULL);
    lib.hash_table_insert(types, lib.strdup("service"), (void *)(long)SECRET_SCHEMA_ATTRIBUTE_STRING);
    lib.hash_table_insert(types, lib.strdup("account"), (void *)(long)SECRET_SCHEMA_ATTRIBUTE_STRING);
    schema = lib.schema_newv("dev.warden.Credential", SECRET_SCHEMA_NONE, types);
    lib.hash_table_unref(types);
    if (schema == NULL) {
        snprintf(load_error, sizeof load_error, "secret_schema_newv failed");
        return;
    }
    loaded = 1;
}

int warden_secret_load(char *reason, size_t reason_size) {
    pthread_once(&once, load_once);
    if (!loaded && reason != NULL && reason_size > 0) snprintf(reason, reason_size, "%s", load_error);
    return loaded;
}

static int not_loaded(warden_secret_error *error) {
    if (error) {
        error->kind = WARDEN_SECRET_ERROR_DBUS;
        error->code = -1;
        snprintf(error->message, sizeof error->message, "libsecret is not loaded");
    }
    return 0;
}

/// Classifies and frees a GError; returns 1 when there was one.
static int take(GError *gerror, warden_secret_error *error) {
    if (gerror == NULL) {
        if (error) error->kind = WARDEN_SECRET_OK;
        return 0;
    }
    if (error) {
        warden_secret_error_kind kind = WARDEN_SECRET_ERROR_OTHER;
        if (gerror->domain == lib.secret_error_get_quark()) {
            kind = gerror->code == SECRET_ERROR_IS_LOCKED ? WARDEN_SECRET_ERROR_LOCKED : WARDEN_SECRET_ERROR_SECRET;
        } else if (gerror->domain == lib.io_error_quark()) {
            kind = gerror->code == G_IO_ERROR_CANCELLED ? WARDEN_SECRET_ERROR_CANCELLED : WARDEN_SECRET_ERROR_IO;
        } else if (gerror->domain == lib.dbus_error_quark()) {
            kind = WARDEN_SECRET_ERROR_DBUS;
        }
        error->kind = kind;
        error->code = gerror->code;
        snprintf(error->message, sizeof error->message, "%s", gerror->message ? gerror->message : "");
    }
    lib.error_free(gerror);
    return 1;
}

static GHashTable *attributes(const char *service, const char *account) {
    GHashTable *table = lib.hash_table_new_full(lib.str_hash, lib.str_equal, lib.free, lib.free);
    lib.hash_table_insert(table, lib.strdup("service"), lib.strdup(service));
    if (account) lib.hash_table_insert(table, lib.strdup("account"), lib.strdup(account));
    return table;
}

void *warden_secret_cancellable_new(void) { return loaded ? lib.cancellable_new() : NULL; }
void warden_secret_cancellable_cancel(void *c) { if (loaded && c) lib.cancellable_cancel(c); }
void warden_secret_cancellable_retain(void *c) { if (loaded && c) lib.object_ref(c); }
void warden_secret_cancellable_release(void *c) { if (loaded && c) lib.object_unref(c); }

int warden_secret_store(const char *service, const char *account, const char *label, const char *secret,
                        void *cancellable, warden_secret_error *error) {
    if (!loaded) return not_loaded(error);
    GHashTable *table = attributes(service, account);
    GError *gerror = NULL;
    int ok = lib.storev_sync(schema, table, NULL, label, secret, cancellable, &gerror);
    lib.hash_table_unref(table);
    if (take(gerror, error)) return 0;
    if (!ok && error) {
        error->kind = WARDEN_SECRET_ERROR_OTHER;
        error->code = 0;
        snprintf(error->message, sizeof error->message, "the item was not stored");
    }
    return ok;
}

char *warden_secret_lookup(const char *service, const char *account, void *cancellable,
                           warden_secret_error *error) {
    if (!loaded) return not_loaded(error), NULL;
    GHashTable *table = attributes(service, account);
    GError *gerror = NULL;
    char *secret = lib.lookupv_sync(schema, table, cancellable, &gerror);
    lib.hash_table_unref(table);
    if (take(gerror, error)) {
        if (secret) lib.password_free(secret);
        return NULL;
    }
    return secret;
}

void warden_secret_free(char *secret) { if (loaded && secret) lib.password_free(secret); }

int warden_secret_probe(const char *service, const char *account, void *cancellable, int *found, int *locked,
                        warden_secret_error *error) {
    *found = 0;
    *locked = 0;
    if (!loaded) return not_loaded(error);
    GHashTable *table = attributes(service, account);
    GError *gerror = NULL;
    GList *list = lib.searchv_sync(schema, table, SECRET_SEARCH_NONE, cancellable, &gerror);
    lib.hash_table_unref(table);
    if (take(gerror, error)) return 0;
    GType item = lib.item_get_type();
    for (GList *node = list; node; node = node->next) {
        if (node->data == NULL) continue;
        (*found)++;
        if (lib.type_check_instance_is_a(node->data, item) && lib.item_get_locked(node->data)) (*locked)++;
    }
    lib.list_free_full(list, lib.object_unref);
    return 1;
}

int warden_secret_clear(const char *service, const char *account, void *cancellable, warden_secret_error *error) {
    if (!loaded) return not_loaded(error);
    GHashTable *table = attributes(service, account);
    GError *gerror = NULL;
    lib.clearv_sync(schema, table, cancellable, &gerror);
    lib.hash_table_unref(table);
    return !take(gerror, error);
}

int warden_secret_accounts(const char *service, void *cancellable, void *context,
                           void (*visit)(void *context, const char *account), warden_secret_error *error) {
    if (!loaded) return not_loaded(error);
    GHashTable *table = attributes(service, NULL);
    GError *gerror = NULL;
    GList *list = lib.searchv_sync(schema, table, SECRET_SEARCH_ALL, cancellable, &gerror);
    lib.hash_table_unref(table);
    if (take(gerror, error)) return 0;
    for (GList *node = list; node; node = node->next) {
        if (node->data == NULL) continue;
        GHashTable *found = lib.retrievable_get_attributes(node->data);
        if (found == NULL) continue;
        const char *value = lib.hash_table_lookup(found, "account");
        if (value) visit(context, value);
        lib.hash_table_unref(found);
    }
    lib.list_free_full(list, lib.object_unref);
    return 1;
}

#else
int warden_secret_load(char *reason, size_t reason_size) {
    if (reason && reason_size) reason[0] = 0;
    return 0;
}
void *warden_secret_cancellable_new(void) { return NULL; }
void warden_secret_cancellable_cancel(void *c) { (void)c; }
void warden_secret_cancellable_retain(void *c) { (void)c; }
void warden_secret_cancellable_release(void *c) { (void)c; }
int warden_secret_store(const char *s, const char *a, const char *l, const char *p, void *c, warden_secret_error *e) {
    (void)s; (void)a; (void)l; (void)p; (void)c; (void)e; return 0;
}
char *warden_secret_lookup(const char *s, const char *a, void *c, warden_secret_error *e) {
    (void)s; (void)a; (void)c; (void)e; return NULL;
}
void warden_secret_free(char *secret) { (void)secret; }
int warden_secret_probe(const char *s, const char *a, void *c, int *f, int *l, warden_secret_error *e) {
    (void)s; (void)a; (void)c; (void)e; *f = 0; *l = 0; return 0;
}
int warden_secret_clear(const char *s, const char *a, void *c, warden_secret_error *e) {
    (void)s; (void)a; (void)c; (void)e; return 0;
}
int warden_secret_accounts(const char *s, void *c, void *x, void (*v)(void *, const char *), warden_secret_error *e) {
    (void)s; (void)c; (void)x; (void)v; (void)e; return 0;
}
#endif
