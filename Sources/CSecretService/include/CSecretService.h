// libsecret loaded at run time (dlopen of libsecret-1.so.0), so building Warden needs no libsecret headers or
// pkg-config, and a machine without libsecret or a Secret Service still runs everything else (the store reports
// service_unavailable). Only the handful of *v_sync calls WardenStorage's SecretServiceStore uses are bound, as
// Chromium's libsecret loader does. The types are opaque here; the layouts libsecret and GLib guarantee as ABI
// (GError, GList, the SecretSchema attribute enum) are declared by hand from their public headers.
#ifndef WARDEN_CSECRETSERVICE_H
#define WARDEN_CSECRETSERVICE_H
#include <stddef.h>

/// What a failed call reported, already classified: the Swift side maps it to a StorageError without GLib.
typedef enum {
    WARDEN_SECRET_OK = 0,
    WARDEN_SECRET_ERROR_LOCKED = 1,      // SECRET_ERROR / SECRET_ERROR_IS_LOCKED
    WARDEN_SECRET_ERROR_CANCELLED = 2,   // G_IO_ERROR / G_IO_ERROR_CANCELLED (our timeout fired)
    WARDEN_SECRET_ERROR_DBUS = 3,        // any G_DBUS_ERROR: no bus, no org.freedesktop.secrets on it
    WARDEN_SECRET_ERROR_IO = 4,          // any other G_IO_ERROR
    WARDEN_SECRET_ERROR_SECRET = 5,      // any other SECRET_ERROR
    WARDEN_SECRET_ERROR_OTHER = 6,
} warden_secret_error_kind;

typedef struct {
    warden_secret_error_kind kind;
    int code;
    /// GLib's message, truncated; never contains a secret (libsecret's messages name objects, not values).
    char message[192];
} warden_secret_error;

/// Loads libsecret-1.so.0 and resolves every symbol once (thread-safe). 1 when usable, 0 otherwise; `reason`
/// (may be NULL) receives dlerror()'s text.
int warden_secret_load(char *reason, size_t reason_size);

/// An opaque cancellation handle (a GCancellable), reference-counted: create, cancel from any thread, release.
void *warden_secret_cancellable_new(void);
void warden_secret_cancellable_cancel(void *cancellable);
void warden_secret_cancellable_retain(void *cancellable);
void warden_secret_cancellable_release(void *cancellable);

/// secret_password_storev_sync on Warden's schema (`dev.warden.Credential`, attributes service + account).
int warden_secret_store(const char *service, const char *account, const char *label, const char *secret,
                        void *cancellable, warden_secret_error *error);

/// secret_password_lookupv_sync: the secret (free with warden_secret_free) or NULL when not found / on error.
char *warden_secret_lookup(const char *service, const char *account, void *cancellable,
                           warden_secret_error *error);
void warden_secret_free(char *secret);

/// secret_password_searchv_sync without unlocking. `found` and `locked` are item counts.
int warden_secret_probe(const char *service, const char *account, void *cancellable, int *found, int *locked,
                        warden_secret_error *error);

/// secret_password_clearv_sync for service (+ account when not NULL).
int warden_secret_clear(const char *service, const char *account, void *cancellable, warden_secret_error *error);

/// The `account` attribute of every item of `service` (all collections, locked ones included): calls `visit`
/// once per item with the value.
int warden_secret_accounts(const char *service, void *cancellable, void *context,
                           void (*visit)(void *context, const char *account), warden_secret_error *error);
#endif
