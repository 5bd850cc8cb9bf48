# SPDX-License-Identifier: MIT
"""Rows of a tensor lifetime table and their CSV text, as tplanctl reads it.

The CSV reader (userspace/lib/table_csv_*.c) has no quoting: a comma always
ends a field, blanks around a field are trimmed, a line ends at LF (a CR
before it is dropped), a NUL byte is an error and a line is at most 4096 bytes.  An
id that is not a number makes every id of the table a name, kept as
written.  So a graph's value name is written as it is, except for the bytes
the reader cannot keep, which are percent-escaped (RFC 3986 style, "%2C"):
',' and '%' itself (so that the escape can be undone), control characters
(below 0x20, and 0x7f), and blanks at either end.  An empty name, or one
longer than MAX_NAME bytes once escaped, is an error.
"""
import io
import re

MAX_NAME = 1000          # bytes; a row holds its id and alias_of, in 4096

COLUMNS = ("id", "lower", "upper", "size", "alignment", "alias_of",
           "alias_offset", "share_key", "uses", "node", "dtype", "shape")
# columns the planner does not read: tplanctl keeps them in the plan file
DESCRIPTIONS = ("node", "dtype", "shape")


class TableError(Exception):
    """A model that cannot become a table: a clear message, exit code 2."""

    exit_code = 2


class Row:
    """One tensor: the columns of tplan's table (see README's Table format).

    id and alias_of are the graph's value names, unescaped; they are escaped
    when the table is written.  alias_of is None for a tensor with bytes of
    its own.  share_key is 0 but for weights (persistent, stored once).
    uses is None (not known: the column's default, lower and upper - 1) or
    a tuple of the steps at which the tensor is written or read, strictly
    increasing, each in [lower, upper).  node (the op that makes it), dtype
    and shape ("1x3x224x224") describe it for a runtime, or are None.
    """

    __slots__ = COLUMNS

    def __init__(self, id, lower, upper, size, alignment=1, alias_of=None,
                 alias_offset=0, share_key=0, uses=None, node=None,
                 dtype=None, shape=None):
        self.id = id
        self.lower = lower
        self.upper = upper
        self.size = size
        self.alignment = alignment
        self.alias_of = alias_of
        self.alias_offset = alias_offset
        self.share_key = share_key
        self.uses = None if uses is None else tuple(uses)
        self.node = node
        self.dtype = dtype
        self.shape = shape

    def as_tuple(self):
        return tuple(getattr(self, c) for c in COLUMNS)

    def __eq__(self, other):
        return isinstance(other, Row) and self.as_tuple() == other.as_tuple()

    def __repr__(self):
        return "Row(%s)" % ", ".join("%s=%r" % (c, getattr(self, c))
                                     for c in COLUMNS)


_ESCAPE = re.compile(r"[,%\x00-\x1f\x7f]|^[ \t]+|[ \t]+$")


def escape_id(name):
    """The id as tplanctl can read it: see this module's description."""
    if not isinstance(name, str) or name == "":
        raise TableError("tensor with an empty name: the table needs an id")
    text = _ESCAPE.sub(lambda m: "".join("%%%02X" % ord(c) for c in m.group()),
                       name)
    if len(text.encode("utf-8")) > MAX_NAME:
        raise TableError("tensor name longer than %d bytes: '%s...'"
                         % (MAX_NAME, text[:60]))
    return text


def unescape_id(text):
    """escape_id() undone."""
    return re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), text)


class Rows(list):
    """A list of Row, in table order, that writes itself as CSV."""

    def columns(self):
        """id,lower,upper,size and the optional columns some row uses."""
        cols = ["id", "lower", "upper", "size"]
        if any(r.alignment != 1 for r in self):
            cols.append("alignment")
        if any(r.alias_of is not None for r in self):
            cols += ["alias_of", "alias_offset"]
        if any(r.share_key for r in self):
            cols.append("share_key")
        if any(r.uses is not None for r in self):
            cols.append("uses")
        cols += [c for c in DESCRIPTIONS
                 if any(getattr(r, c) is not None for r in self)]
        return cols

    def without_uses(self):
        """The same rows without uses (no uses column)."""
        out = Rows()
        for r in self:
            row = Row(*r.as_tuple())
            row.uses = None
            out.append(row)
        return out

    def unaliased(self):
        """The same rows, each with bytes of its own (no alias_of)."""
        out = Rows()
        for r in self:
            row = Row(*r.as_tuple())
            row.alias_of, row.alias_offset = None, 0
            out.append(row)
        return out

    def _root(self, by_id, r):
        seen = set()
        while r.alias_of is not None and r.id not in seen:
            seen.add(r.id)
            r = by_id[r.alias_of]
        return r

    def folded(self):
        """Each alias group as one row: the owner's id, size and place in
        the table, alive over the union of its members' lifetimes, with the
        union of their uses (what tplanctl plan --aliases plans)."""
        by_id = {r.id: r for r in self}
        groups = {}
        for r in self:
            groups.setdefault(self._root(by_id, r).id, []).append(r)
        out = Rows()
        for r in self:
            if r.alias_of is not None:
                continue
            members = groups[r.id]
            uses = None
            if any(m.uses is not None for m in members):
                steps = set()
                for m in members:
                    steps.update(m.uses if m.uses is not None else
                                 (m.lower, m.upper - 1))
                uses = sorted(steps)
            out.append(Row(r.id, min(m.lower for m in members),
                           max(m.upper for m in members), r.size,
                           max(m.alignment for m in members),
                           share_key=r.share_key, uses=uses, node=r.node,
                           dtype=r.dtype, shape=r.shape))
        return out

    def check_ids(self):
        """Ids unique once escaped and read back (all-digit ids: numbers)."""
        ids = [escape_id(r.id) for r in self]
        if ids and all(i.isdigit() for i in ids):
            # tplanctl reads such a table as numbers: "07" and "7" are one id
            keys = [int(i) for i in ids]
        else:
            keys = ids
        seen = {}
        for r, key in zip(self, keys):
            if key in seen:
                raise TableError("tensors '%s' and '%s' have the same id in "
                                 "the table" % (seen[key], r.id))
            seen[key] = r.id

    def csv(self):
        """The table as CSV text, header first."""
        self.check_ids()
        cols = self.columns()
        out = io.StringIO()
        out.write(",".join(cols) + "\n")
        for r in self:
            fields = []
            for c in cols:
                v = getattr(r, c)
                if c == "id":
                    v = escape_id(v)
                elif c == "alias_of":
                    v = "" if v is None else escape_id(v)
                elif c == "alias_offset" and r.alias_of is None:
                    v = ""
                elif c == "uses":
                    v = "" if v is None else " ".join(str(u) for u in v)
                elif c in DESCRIPTIONS:
                    v = "" if v in (None, "") else escape_id(str(v))
                fields.append(str(v))
            out.write(",".join(fields) + "\n")
        return out.getvalue()

    def write(self, path):
        """Writes csv() to a path, or to standard output for None or '-'."""
        text = self.csv()
        if path in (None, "-"):
            import sys
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)

    def lower_bound(self):
        """The largest sum of sizes alive at one step, aliases folded.

        As tplanctl's "lower bound" with --aliases: each alias group counts
        its owner's size over the union of its members' lifetimes (rows of a
        share_key are counted once, over every step).
        """
        by_id = {r.id: r for r in self}
        spans = {}
        for r in self:
            o = self._root(by_id, r)
            lo, up = spans.get(o.id, (r.lower, r.upper))
            spans[o.id] = (min(lo, r.lower), max(up, r.upper))
        events = {}
        keys = set()
        for oid, (lo, up) in spans.items():
            o = by_id[oid]
            if o.share_key:
                if o.share_key in keys:
                    continue
                keys.add(o.share_key)
            events[lo] = events.get(lo, 0) + o.size
            events[up] = events.get(up, 0) - o.size
        best = cur = 0
        for t in sorted(events):
            cur += events[t]
            best = max(best, cur)
        return best
