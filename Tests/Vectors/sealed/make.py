# Sealed-format vectors made by an independent implementation (pyca/cryptography: HKDF-SHA256, AES-GCM,
# ChaCha20-Poly1305) of the format SealedFormat.swift documents. Warden must open them (SealedFormatVectorTests);
# they also seed the FuzzSealedFormat target. Run: python3 make.py DIR (with the venv of scripts/python-env).
import os, struct, sys
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives import hashes
master = bytes([1]) * 32
key_id = bytes([2]) * 16
def seal(plaintext, context, algorithm, salt, nonce):
    header = b"WSLD" + bytes([1, algorithm]) + key_id + salt + nonce
    key = HKDF(hashes.SHA256(), 32, salt, b"warden.sealed.v1" + bytes([algorithm]) + key_id).derive(master)
    name = context.encode()
    aad = header + struct.pack(">I", len(name)) + name
    cipher = AESGCM(key) if algorithm == 1 else ChaCha20Poly1305(key)
    return header + cipher.encrypt(nonce, plaintext, aad)
out = sys.argv[1]
for i, (text, alg) in enumerate([(b"", 1), (b"a cached profile", 1), (b"drafts " * 40, 2), (bytes(range(256)), 2)]):
    open(f"{out}/seed-{i}.sealed", "wb").write(seal(text, "fuzz", alg, bytes([i + 3]) * 32, bytes([i + 9]) * 12))
open(f"{out}/keyring.bin", "wb").write(bytes([1, 2]) + key_id + master + bytes([7]) * 16 + bytes([8]) * 32)
