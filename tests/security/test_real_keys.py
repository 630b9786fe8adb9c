"""ML601 finds real private keys of every common format, generated here by the tools that make them
(ssh-keygen, openssl, gpg; a PuTTY .ppk built from an ssh-keygen key as PuTTYgen writes one), and
skipped with a reason where the tool is missing (issue 27, point 8)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from memlint.rules.security._secrets import find_secrets, is_private_key


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed: cannot generate a real key")
    return found


def _ssh_key(tmp_path: Path, kind: str, fmt: str | None = None, bits: str | None = None) -> str:
    key = tmp_path / f"id_{kind}_{fmt or 'openssh'}"
    args = [_tool("ssh-keygen"), "-q", "-t", kind, "-N", "", "-C", "dev@laptop", "-f", str(key)]
    args += ["-m", fmt] if fmt else []
    args += ["-b", bits] if bits else []
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        pytest.skip(f"ssh-keygen -t {kind} {fmt or ''} failed here: {done.stderr.strip()}")
    return key.read_text(encoding="ascii")


def _memory(key: str) -> str:
    return f"# Deploy notes\n\nThe deploy box accepts this key:\n\n```\n{key}```\n\nRotate it monthly.\n"


@pytest.mark.parametrize(
    ("kind", "fmt", "bits", "label"),
    [
        ("ed25519", None, None, "OPENSSH"),
        ("rsa", None, "2048", "OPENSSH"),
        ("ecdsa", None, "256", "OPENSSH"),
        ("ecdsa", None, "521", "OPENSSH"),
        ("rsa", "PEM", "2048", "RSA"),
        ("ecdsa", "PEM", "384", "EC"),
        ("rsa", "PKCS8", "2048", ""),
        ("ecdsa", "PKCS8", "256", ""),
        ("ed25519", "PKCS8", None, "OPENSSH"),  # ssh-keygen writes ed25519 keys in its own format only
    ],
)
def test_ssh_keygen_keys_are_found(tmp_path: Path, kind: str, fmt: str | None, bits: str | None, label: str) -> None:
    key = _ssh_key(tmp_path, kind, fmt, bits)
    found = list(find_secrets(_memory(key)))
    assert [s.kind for s in found] == [f"{label} private key block".strip()], key.splitlines()[0]


@pytest.mark.parametrize("seed", range(8))
def test_ed25519_openssh_keys_are_found_whatever_their_base64_spells(tmp_path: Path, seed: int) -> None:
    """The bodies of these keys hold `AAAA` runs (length fields) and, by chance, words like `test`."""
    key = _ssh_key(tmp_path, "ed25519")
    assert "AAAA" in key
    assert [s.kind for s in find_secrets(_memory(key))] == ["OPENSSH private key block"]


@pytest.mark.parametrize(
    ("args", "label"),
    [
        (["genpkey", "-algorithm", "ed25519"], ""),
        (["genpkey", "-algorithm", "x25519"], ""),
        (["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], ""),
        (["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-aes-128-cbc", "-pass", "pass:hunter2hunter2"],
         "ENCRYPTED"),
    ],
)
def test_openssl_keys_are_found(tmp_path: Path, args: list[str], label: str) -> None:
    done = subprocess.run([_tool("openssl"), *args], capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        pytest.skip(f"openssl {' '.join(args)} failed here: {done.stderr.strip()[:200]}")
    assert [s.kind for s in find_secrets(_memory(done.stdout))] == [f"{label} private key block".strip()]


def test_pgp_private_key_block_is_found(tmp_path: Path) -> None:
    gpg = _tool("gpg")
    home = tmp_path / "gnupg"
    home.mkdir(mode=0o700)
    env = {**os.environ, "GNUPGHOME": str(home)}
    made = subprocess.run(
        [gpg, "--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--quick-gen-key",
         "Dev Person <dev@example.org>", "ed25519", "sign", "never"],
        capture_output=True, text=True, timeout=120, env=env, check=False)
    if made.returncode != 0:
        pytest.skip(f"gpg cannot generate a key here: {made.stderr.strip()[:200]}")
    exported = subprocess.run(
        [gpg, "--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--armor", "--export-secret-keys"],
        capture_output=True, text=True, timeout=60, env=env, check=True)
    assert "BEGIN PGP PRIVATE KEY BLOCK" in exported.stdout
    assert [s.kind for s in find_secrets(_memory(exported.stdout))] == ["PGP private key block"]


def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def _read_string(data: bytes, at: int) -> tuple[bytes, int]:
    size = struct.unpack(">I", data[at : at + 4])[0]
    return data[at + 4 : at + 4 + size], at + 4 + size


def _ppk_from_openssh_ed25519(openssh: str) -> str:
    """The PuTTY v2 key file PuTTYgen writes for this unencrypted ed25519 key (unencrypted: MAC key
    SHA-1 of "putty-private-key-file-mac-key", HMAC-SHA-1 over algorithm, encryption, comment,
    public and private blobs)."""
    body = "".join(line for line in openssh.splitlines() if not line.startswith("-----"))
    data = base64.b64decode(body)
    at = len(b"openssh-key-v1\0")
    for _ in range(3):  # cipher, kdf, kdf options
        _, at = _read_string(data, at)
    at += 4  # number of keys
    public, at = _read_string(data, at)
    private_section, _ = _read_string(data, at)
    at = 8  # two check integers
    algorithm, at = _read_string(private_section, at)
    _, at = _read_string(private_section, at)  # the public key
    secret, at = _read_string(private_section, at)  # private + public, 64 bytes
    comment = _read_string(private_section, at)[0].decode()
    private = _string(secret[:32])
    mac_key = hashlib.sha1(b"putty-private-key-file-mac-key").digest()
    signed = b"".join(_string(x) for x in (algorithm, b"none", comment.encode(), public, private))
    mac = hmac.new(mac_key, signed, hashlib.sha1).hexdigest()

    def lines(blob: bytes) -> list[str]:
        text = base64.b64encode(blob).decode()
        return [text[i : i + 64] for i in range(0, len(text), 64)]

    pub, priv = lines(public), lines(private)
    return "\n".join([
        f"PuTTY-User-Key-File-2: {algorithm.decode()}", "Encryption: none", f"Comment: {comment}",
        f"Public-Lines: {len(pub)}", *pub, f"Private-Lines: {len(priv)}", *priv, f"Private-MAC: {mac}",
    ]) + "\n"


def test_putty_key_file_is_found(tmp_path: Path) -> None:
    ppk = _ppk_from_openssh_ed25519(_ssh_key(tmp_path, "ed25519"))
    found = list(find_secrets(_memory(ppk)))
    assert [s.kind for s in found] == ["PuTTY private key"]
    assert "Private" not in found[0].masked and found[0].masked.endswith("lines)")


@pytest.mark.parametrize(
    "text",
    [
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA...\n-----END OPENSSH PRIVATE KEY-----\n",
        "-----BEGIN RSA PRIVATE KEY-----\n<your key here>\n-----END RSA PRIVATE KEY-----\n",
        "-----BEGIN PRIVATE KEY-----\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END PRIVATE KEY-----\n",
        ("PuTTY-User-Key-File-2: ssh-ed25519\nEncryption: none\nComment: x\nPublic-Lines: 1\nAAAA\n"
         "Private-Lines: 1\n...\nPrivate-MAC: <mac>\n"),
    ],
)
def test_stand_in_key_blocks_are_not_secrets(text: str) -> None:
    assert not list(find_secrets(text))


def test_a_shortened_key_is_judged_by_its_randomness_as_before() -> None:
    body = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvredZiKRkgwlL9xNAwxXFg0x/XFw005UWVRIkdgcKWTjpBP2dPwVZ4WWC+9aGVd+Gyn1o0CLelf4rEjGoXbAAEgAqeGUxrcIlbjXfbcmwIDAQABAoIBAQ"
    assert is_private_key("RSA ", f"\n{body}...\n")
    assert not is_private_key("RSA ", "\nMIIEowIBAAKCAQEA...\n")
