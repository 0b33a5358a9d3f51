// Imports the parts of OpenSSL's libcrypto that WardenCrypto uses, plus small shims for what Swift cannot
// import: function-like macros (OPENSSL_free) and composite object-like macros (EVP_PKEY_PUBLIC_KEY).
#ifndef WARDEN_COPENSSL_SHIM_H
#define WARDEN_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// OSSL_PARAM_BLD keeps the key-name pointers it is given until OSSL_PARAM_BLD_to_param, so names must be
// stable C strings, not temporaries bridged from Swift strings.
static const char *const warden_param_n = OSSL_PKEY_PARAM_RSA_N;
static const char *const warden_param_e = OSSL_PKEY_PARAM_RSA_E;
static const char *const warden_param_group = OSSL_PKEY_PARAM_GROUP_NAME;
static const char *const warden_param_pub = OSSL_PKEY_PARAM_PUB_KEY;

static inline void warden_openssl_free(void *pointer) { OPENSSL_free(pointer); }

#include <errno.h>
#include <sys/random.h>
/// The kernel's CSPRNG (getrandom(2), no flags: blocks only until the pool is first initialised at boot). Per-call
/// nonces come from here: OpenSSL 3.0's RAND_bytes costs ~1.5 µs a call (a getpid fork check, DRBG locks), more than
/// sealing a kilobyte. Returns 1 when all `count` bytes were filled.
static inline int warden_getrandom(unsigned char *buffer, size_t count) {
    size_t done = 0;
    while (done < count) {
        ssize_t got = getrandom(buffer + done, count - done, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return 0;
        }
        done += (size_t)got;
    }
    return 1;
}

static inline int warden_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }

static inline int warden_evp_pkey_keypair_selection(void) { return EVP_PKEY_KEYPAIR; }

/// Sets RSA-PSS verification parameters: MGF1 with the message digest, salt length = digest length.
static inline int warden_set_pss(EVP_PKEY_CTX *ctx, const EVP_MD *md) {
    if (EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) != 1) return 0;
    if (EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, md) != 1) return 0;
    return EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, RSA_PSS_SALTLEN_DIGEST) == 1;
}

static inline int warden_set_pkcs1(EVP_PKEY_CTX *ctx) {
    return EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) == 1;
}

// STACK_OF(X509) helpers: the sk_X509_* names are macros Swift cannot import.
static inline STACK_OF(X509) *warden_x509_stack_new(void) { return sk_X509_new_null(); }

/// Pushes `certificate` without taking a reference; the caller keeps ownership of every element.
static inline int warden_x509_stack_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate) > 0;
}

/// Frees the stack only (not its elements).
static inline void warden_x509_stack_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }

#endif
