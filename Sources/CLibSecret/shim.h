// libsecret for WardenStorage's Secret Service store (Linux). Only the *v_sync calls are used: the variadic
// ones do not import into Swift.
#ifndef WARDEN_CLIBSECRET_SHIM_H
#define WARDEN_CLIBSECRET_SHIM_H
#include <libsecret/secret.h>

static inline GHashTable *warden_string_table(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

static inline void warden_table_insert(GHashTable *table, const char *key, const char *value) {
    g_hash_table_insert(table, g_strdup(key), g_strdup(value));
}

static inline void warden_table_insert_type(GHashTable *table, const char *key, int type) {
    g_hash_table_insert(table, g_strdup(key), GINT_TO_POINTER(type));
}

static inline GHashTable *warden_type_table(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

static inline int warden_error_is_locked(const GError *error) {
    return error != NULL && error->domain == SECRET_ERROR && error->code == SECRET_ERROR_IS_LOCKED;
}

static inline int warden_error_is_no_such_object(const GError *error) {
    return error != NULL && error->domain == SECRET_ERROR && error->code == SECRET_ERROR_NO_SUCH_OBJECT;
}

static inline int warden_error_is_cancelled(const GError *error) {
    return error != NULL && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/// The attribute value of `name` on a SecretRetrievable, newly allocated (g_free it), or NULL.
static inline char *warden_retrievable_attribute(SecretRetrievable *item, const char *name) {
    GHashTable *attributes = secret_retrievable_get_attributes(item);
    if (attributes == NULL) return NULL;
    const char *value = g_hash_table_lookup(attributes, name);
    char *copy = value ? g_strdup(value) : NULL;
    g_hash_table_unref(attributes);
    return copy;
}
/// 1 when the retrievable is a SecretItem in a locked collection.
static inline int warden_retrievable_is_locked(SecretRetrievable *item) {
    return SECRET_IS_ITEM(item) ? secret_item_get_locked(SECRET_ITEM(item)) : 0;
}
#endif
