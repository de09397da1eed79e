"""Errors with a stable code and a hint saying what to do.

A user-facing error never contains note text: it may be PHI. Messages name the
file, the document id, the offsets and the problem, never the characters.
"""

from __future__ import annotations


class PhiscrubError(Exception):
    """Base class of every error phiscrub raises on purpose.

    ``code`` is stable (scripts may match on it); ``hint`` says what to do.
    """

    code = "E000"
    hint = ""

    def __init__(self, message: str, *, hint: str | None = None, path: str | None = None) -> None:
        self.message = message
        self.path = path
        if hint is not None:
            self.hint = hint
        super().__init__(str(self))

    def __reduce__(self) -> tuple[object, ...]:
        # Pickle by fields (worker processes send errors back): the default would call
        # __init__ with the formatted string and lose the hint and path.
        return (_rebuild, (type(self), self.message, self.hint, self.path))

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        tail = f" ({self.hint})" if self.hint else ""
        return f"[{self.code}] {where}{self.message}{tail}"


def _rebuild(
    cls: type[PhiscrubError], message: str, hint: str, path: str | None
) -> PhiscrubError:
    error = cls.__new__(cls)
    PhiscrubError.__init__(error, message, hint=hint, path=path)
    return error


class SpanError(PhiscrubError, ValueError):
    """A span that does not fit its text or the taxonomy."""

    code = "E101"
    hint = "check the offsets (half-open, counted in Python code points) and the label"


class LabelError(SpanError):
    """A label that is not a subtype of the taxonomy (nor mapped to one)."""

    code = "E102"
    hint = "use an i2b2 2014 subtype (see `phiscrub.taxonomy.SUBTYPES`) or pick a label scheme"


class FormatError(PhiscrubError, ValueError):
    """A corpus file that cannot be read as its format says."""

    code = "E201"
    hint = "fix the file, or pass --format if the format was guessed wrongly"


class EncodingProblem(FormatError):
    """Bytes that do not decode with the expected encoding."""

    code = "E202"
    hint = "pass --encoding (for example --encoding cp1252) to read a legacy file"


class EmptyInput(FormatError):
    """An empty file or folder where notes were expected."""

    code = "E203"
    hint = "check the path; an empty file holds no note"


class UsageError(PhiscrubError, ValueError):
    """A command-line or API call that cannot be carried out as asked."""

    code = "E301"
