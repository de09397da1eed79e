"""A fictional note full of PHI, and the strings that must never reach a log or an error."""

from __future__ import annotations

KEY = b"a test key for the HTTP service, not a secret"

#: every PHI string of NOTE (fictional), which must never reach a log or an error
PHI = ("Zebulon Quartermaine", "Quartermaine", "03/14/2021", "617-555-0199", "8675309")
NOTE = (
    "Patient Zebulon Quartermaine was seen on 03/14/2021 by Dr. Alice Moreno.\n"
    "MRN: 8675309. Call 617-555-0199 with results."
)
