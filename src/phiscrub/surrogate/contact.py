"""E-mail, URL and IP address surrogates of the same shape (keyed per original)."""

from __future__ import annotations

import re

from phiscrub.surrogate.keys import Chooser, digest, normalize
from phiscrub.surrogate.shape import shape_surrogate

#: URL words kept as they are: schemes, ``www``, top-level domains, file endings
KEPT_URL_WORDS = frozenset(
    [
        "http",
        "https",
        "ftp",
        "www",
        "com",
        "org",
        "net",
        "edu",
        "gov",
        "mil",
        "int",
        "io",
        "us",
        "uk",
        "ca",
        "html",
        "htm",
        "php",
        "asp",
        "aspx",
        "jsp",
        "cgi",
        "pdf",
        "index",
        "home",
    ]
)
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_IPV6 = re.compile(r"[0-9A-Fa-f:]*:[0-9A-Fa-f:]*(?:%\w+)?")


def email_surrogate(key: bytes, scope: str, text: str) -> str:
    """Local part and domain labels of the same shape; ``@``, dots and the top-level
    domain are kept."""
    chooser = Chooser(digest(key, scope, "EMAIL", normalize(text)))
    local, at, domain = text.rpartition("@")
    if not at:
        return shape_surrogate(text, chooser)
    labels = domain.split(".")
    new_labels = [shape_surrogate(lab, chooser) if lab else lab for lab in labels[:-1]]
    return shape_surrogate(local, chooser) + "@" + ".".join([*new_labels, labels[-1]])


def url_surrogate(key: bytes, scope: str, text: str) -> str:
    """Scheme, ``www``, top-level domain, file endings and punctuation kept; other
    words replaced by random characters of the same shape."""
    chooser = Chooser(digest(key, scope, "URL", normalize(text)))
    out = []
    for m in re.finditer(r"[0-9A-Za-z]+|[^0-9A-Za-z]+", text):
        tok = m.group()
        keep = not tok[0].isalnum() or tok.lower() in KEPT_URL_WORDS
        out.append(tok if keep else shape_surrogate(tok, chooser))
    result = "".join(out)
    return result if result != text else shape_surrogate(text, chooser)


def ip_surrogate(key: bytes, scope: str, text: str) -> str:
    """A valid IPv4 address with octets of the same number of digits (1-9, 10-99,
    100-254; the first octet avoids 127 and multicast), or an IPv6 address of the
    same shape (hexadecimal digits, case and ``::`` kept)."""
    chooser = Chooser(digest(key, scope, "IPADDR", normalize(text)))
    core = text.strip()
    if _IPV4.fullmatch(core):
        octets = [_octet(len(o), i == 0, chooser) for i, o in enumerate(core.split("."))]
        return text.replace(core, ".".join(octets))
    if _IPV6.fullmatch(core):
        return shape_surrogate(text, chooser, hex_digits=True)
    return shape_surrogate(text, chooser)


def _octet(width: int, first: bool, chooser: Chooser) -> str:
    low, high = {1: (1, 9), 2: (10, 99), 3: (100, 223 if first else 254)}[width]
    value = chooser.between(low, high)
    while first and value == 127:
        value = chooser.between(low, high)
    return str(value)
