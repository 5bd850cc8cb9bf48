# SPDX-License-Identifier: MIT
"""Tables, planned in this process: tplan_table_* of libtplan."""
import array
import ctypes
import errno
import io
import operator
import os
import re

from . import _lib
from ._lib import lib
from .errors import Error, from_errno
from .importer.rows import Rows as ImportedRows

# The columns a row may give, in the order a tuple gives them.
ROW_FIELDS = ("id", "lower", "upper", "size", "alignment", "alias_of",
              "alias_offset", "model", "priority", "tiers", "share_key")
# ... MiniMalloc's hint and gaps, which a dict may give ("gaps": its text,
# or (lower, upper) and (lower, upper, from, to) tuples) ...
CONSTRAINT_FIELDS = ("hint", "gaps")
# ... and the plan's, which a dict may give too (to validate a plan, or as
# pinned offsets to plan around).
PLAN_FIELDS = ("tier", "offset")

# The defects tplan_table_validate() finds in a table before its offsets.
_TABLE_DEFECTS = {_lib.TPLAN_DEFECT_LIFETIME, _lib.TPLAN_DEFECT_ALIGNMENT,
                  _lib.TPLAN_DEFECT_FLAGS, _lib.TPLAN_DEFECT_DUPLICATE_ID,
                  _lib.TPLAN_DEFECT_TOO_LARGE, _lib.TPLAN_DEFECT_TIER_UNKNOWN}


def _is_bool(kind):
    """Whether a type is bool or numpy's bool_ (which index() takes)."""
    return issubclass(kind, bool) or (kind.__name__ == "bool_" and
                                      kind.__module__ == "numpy")


def as_int(value, what):
    """value as an int: anything operator.index() takes (int, numpy's
    integers, ...); a bool (numpy's too) or a float raises Error."""
    kind = type(value)
    if _is_bool(kind):
        raise Error(errno.EINVAL, "invalid %s %r: an integer, not a bool" %
                    (what, value))
    try:
        return operator.index(value)
    except TypeError:
        raise Error(errno.EINVAL, "invalid %s %r: an integer, not %s" %
                    (what, value, kind.__name__)) from None


def parse_size(value, what="size"):
    """A byte count: an integer (anything operator.index() takes), or a
    string with an optional K, M or G suffix (powers of 1024), as tplanctl
    takes them."""
    if isinstance(value, str):
        m = re.fullmatch(r"([0-9]+)([KkMmGg]?)", value)
        if m:
            shift = {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2).lower()]
            return parse_size(int(m.group(1)) << shift, what)
        raise Error(errno.EINVAL, "invalid %s %r" % (what, value))
    n = as_int(value, what)
    if n < 0 or n >= 1 << 64:
        raise Error(errno.EINVAL, "invalid %s %r" % (what, value))
    return n


def strategy_id(strategy):
    """The planner's number for a strategy name ("auto", "greedy-size"...)."""
    if not isinstance(strategy, str):
        strategy = as_int(strategy, "strategy")
        if 0 <= strategy < len(_lib.STRATEGIES):
            return strategy
    else:
        out = _lib.u32()
        if lib().tplan_strategy_from_name(strategy.encode(),
                                          ctypes.byref(out)) == 0:
            return out.value
    raise Error(errno.EINVAL, "invalid strategy %r (one of %s)" %
                (strategy, ", ".join(_lib.STRATEGIES)))


def strategy_name(strategy):
    return lib().tplan_strategy_name(strategy).decode()


def search_name(search):
    return lib().tplan_search_name(search).decode()


def defect_name(defect):
    return lib().tplan_defect_name(defect).decode()


def version():
    """libtplan's version, "MAJOR.MINOR.PATCH"."""
    return lib().tplan_version().decode()


def make_options(strategy="auto", capacity=0, tiers=None, budget=0,
                 time_limit=None, small_below=0, aliases=False, serial=False,
                 concurrent=False):
    """struct tplan_options from tplanctl plan's options.

    strategy: a name; capacity, budget, small_below: byte counts (or units)
    as int or "4M"; tiers: 2 to 4 capacities, fastest first (the last may
    be 0: unlimited), not with capacity; time_limit: milliseconds;
    aliases: honour alias_of; serial/concurrent: how the models run.
    """
    o = _lib.tplan_options()
    o.strategy = strategy_id(strategy)
    o.capacity = parse_size(capacity or 0, "capacity")
    o.budget = parse_size(budget or 0, "budget")
    o.small_below = parse_size(small_below or 0, "small_below")
    if time_limit:
        ms = time_limit if isinstance(time_limit, float) else \
            as_int(time_limit, "time_limit (milliseconds)")
        if ms < 0:
            raise Error(errno.EINVAL, "invalid time_limit %r (milliseconds)"
                        % (time_limit,))
        o.time_limit_ns = int(ms * 1000000)
    if serial and concurrent:
        raise Error(errno.EINVAL, "serial and concurrent exclude each other")
    o.flags = ((_lib.TPLAN_PLAN_ALIASES if aliases else 0) |
               (_lib.TPLAN_PLAN_SERIAL if serial else 0))
    if tiers is not None:
        tiers = [parse_size(t, "tier capacity") for t in tiers]
        if not 2 <= len(tiers) <= _lib.TPLAN_MAX_TIERS:
            raise Error(errno.EINVAL, "tiers: 2 to %d capacities, not %d" %
                        (_lib.TPLAN_MAX_TIERS, len(tiers)))
        if o.capacity:
            raise Error(errno.EINVAL, "tiers give each tier's capacity; "
                        "drop capacity")
        o.tier_count = len(tiers)
        for k, t in enumerate(tiers):
            o.tier_capacity[k] = t
    return o


def _gap_text(gap):
    """MiniMalloc's "lower-upper" or "lower-upper@from:to"."""
    gap = tuple(as_int(v, "gap bound") for v in gap)
    if len(gap) == 2:
        return "%d-%d" % gap
    if len(gap) == 4:
        return "%d-%d@%d:%d" % gap
    raise Error(errno.EINVAL, "invalid gap %r: (lower, upper) or "
                "(lower, upper, from, to)" % (gap,))


def _is_int(value):
    """Whether as_int() takes value (without raising)."""
    try:
        as_int(value, "")
        return True
    except Error:
        return False


def _quoted(text):
    """A name as a CSV field: quoted (RFC 4180) when it holds a comma, a
    quote or blanks at its ends, as libtplan writes one."""
    if "," in text or '"' in text or text != text.strip(" \t"):
        return '"%s"' % text.replace('"', '""')
    return text


def _csv_value(field, value):
    if value is None:
        return ""
    if field in ("id", "alias_of"):
        text = value if isinstance(value, str) else \
            str(operator.index(value)) if _is_int(value) else ""
        if not text or any(c in text for c in "\r\n\0"):
            raise Error(errno.EINVAL, "invalid %s %r: a number or a name "
                        "without line ends" % (field, value))
        return _quoted(text)
    if field == "tiers" and not isinstance(value, str) and \
       not _is_int(value):
        try:
            tiers = {as_int(k, "tier") for k in value}
        except TypeError:
            raise Error(errno.EINVAL, "invalid tiers %r: digits, or a list "
                        "of tier numbers" % (value,)) from None
        return "".join(str(k) for k in sorted(tiers))
    if field == "gaps" and not isinstance(value, str):
        return " ".join(_gap_text(g) for g in value)
    if field == "gaps":
        if any(c in value for c in ",\r\n\0"):
            raise Error(errno.EINVAL, "invalid gaps %r" % value)
        return value
    text = value if isinstance(value, str) else str(as_int(value, field))
    if any(c in text for c in ",\r\n\0"):
        raise Error(errno.EINVAL, "invalid %s %r" % (field, value))
    return text


def rows_to_csv(rows):
    """CSV text of rows (dicts, or tuples in ROW_FIELDS order)."""
    known = ROW_FIELDS + CONSTRAINT_FIELDS + PLAN_FIELDS
    dicts = []
    for i, row in enumerate(rows):
        if isinstance(row, dict):
            unknown = [k for k in row if k not in known]
            if unknown:
                raise Error(errno.EINVAL, "row %d: unknown column %r (known: "
                            "%s)" % (i, unknown[0], ", ".join(known)))
            dicts.append(row)
        else:
            row = tuple(row)
            if not 4 <= len(row) <= len(ROW_FIELDS):
                raise Error(errno.EINVAL, "row %d: %d values; a tuple gives "
                            "4 to %d: %s" % (i, len(row), len(ROW_FIELDS),
                                             ", ".join(ROW_FIELDS)))
            dicts.append(dict(zip(ROW_FIELDS, row)))
    for i, row in enumerate(dicts):
        for field in ROW_FIELDS[:4]:
            if row.get(field) is None:
                raise Error(errno.EINVAL, "row %d: no %s" % (i, field))
    columns = list(ROW_FIELDS[:4])
    columns += [f for f in ROW_FIELDS[4:] + CONSTRAINT_FIELDS + PLAN_FIELDS
                if any(r.get(f) is not None for r in dicts)]
    lines = [",".join(columns)]
    for i, row in enumerate(dicts):
        try:
            lines.append(",".join(_csv_value(f, row.get(f))
                                  for f in columns))
        except Error as e:
            raise Error(e.errno, "row %d: %s" % (i, e.strerror)) from None
    return "\n".join(lines) + "\n"


_ROWS_NAME = "<rows>"


def _u64_column(what, column):
    """A column as a writable buffer of u64 (an array.array, or a numpy
    array for a numpy column of integers), checked as rows' values are:
    whatever operator.index() takes (numpy's integers too) but bool."""
    kind = getattr(getattr(column, "dtype", None), "kind", None)
    if kind in ("i", "u") and getattr(column, "ndim", 0) == 1 and \
            len(column) and (kind == "u" or column.min() >= 0):
        return column.astype("<u8", order="C")     # a copy: no Python ints
    if hasattr(column, "tolist"):
        column = column.tolist()    # numpy: Python ints (bools stay bools)
    try:
        if not any(map(_is_bool, set(map(type, column)))):
            return array.array("Q", map(operator.index, column)) \
                or array.array("Q", [0])
    except (TypeError, OverflowError):
        pass
    for value in column:
        as_int(value, what)     # raises the reason
        if operator.index(value) < 0 or operator.index(value) >= 1 << 64:
            raise Error(errno.EINVAL, "invalid %s %r: not a 64-bit unsigned"
                        " integer" % (what, value))
    raise Error(errno.EINVAL, "invalid %s column" % what)


def _id_names(ids):
    """Ids as names (UTF-8 bytes), or None when they are all numbers."""
    if ids is None:
        return None
    if hasattr(ids, "tolist"):
        ids = ids.tolist()
    if not any(isinstance(x, str) for x in ids):
        return None
    return [(x if isinstance(x, str) else str(as_int(x, "id"))).encode()
            for x in ids]


def _rows_message(msg):
    """"<rows>:LINE:COL: why" as "row K: why" (the header is line 1)."""
    m = re.match(re.escape(_ROWS_NAME) + r":(\d+):\d+: (.*)", msg, re.S)
    if not m:
        return msg.replace(_ROWS_NAME + ": ", "rows: ")
    why = re.sub(r"\(first on line (\d+)\)",
                 lambda n: "(first in row %d)" % (int(n.group(1)) - 2),
                 m.group(2))
    return "row %d: %s" % (int(m.group(1)) - 2, why)


class Result:
    """What planning a table gave: the figures of tplanctl plan's summary
    and each tensor's offset and tier.

    offsets, tiers: dicts by tensor id (its name for a table of names), or
    by (model, id) for a table with a model column or several models.
    offset_array, tier_array: the same in table order, as array.array
    ('Q' and 'I'; numpy.frombuffer() takes them without a copy).
    tier_peaks, tier_weights: per tier, for a plan across tiers (else one
    each).  apart: with several models, what planning each alone needs.
    time: seconds.  show() draws the plan as an SVG picture.
    """

    def __init__(self, table, res, opts, apart=None):
        tiers = max(opts.tier_count, 1)
        self.table = table
        self.strategy = strategy_name(res.strategy)
        self.search = search_name(res.search) if res.search else None
        self.peak = res.peak
        self.lower_bound = res.lower_bound
        self.naive_total = res.naive_total
        self.work = res.work
        self.time_ns = res.time_ns
        self.time = res.time_ns / 1e9
        self.capacity = opts.capacity
        self.tier_capacities = list(opts.tier_capacity[:tiers]) \
            if opts.tier_count > 1 else []
        self.tier_peaks = list(res.tier_peak[:tiers])
        self.tier_weights = list(res.tier_weight[:tiers])
        self.models = table.models
        self.serial = bool(opts.flags & _lib.TPLAN_PLAN_SERIAL)
        self.aliases = bool(opts.flags & _lib.TPLAN_PLAN_ALIASES)
        self.apart = apart
        keys = table.keys()
        t = table._tensors()
        self.offset_array = array.array("Q", (x.offset for x in t))
        self.tier_array = array.array("I", (x.tier for x in t))
        self.offsets = dict(zip(keys, self.offset_array))
        self.tiers = dict(zip(keys, self.tier_array))

    @property
    def ratio(self):
        """peak / lower bound (1.0 when both are 0)."""
        if not self.lower_bound:
            return 1.0 if not self.peak else float("inf")
        return self.peak / self.lower_bound

    @property
    def saved(self):
        """With several models: bytes planning them together saved."""
        return None if self.apart is None else self.apart - self.peak

    def show(self, path=None, names=None):
        """Draw this plan as an SVG picture, as tplanctl show -o does: one
        panel per tier, each tensor a rectangle named (its node column's
        name, else its id) where it fits, the peak and the live-bytes bound
        as lines, the bytes live at each step as a curve under the packing.

        Returns the SVG's text; path: a file to write it to as well.  names: a names file (tab-separated, an id and a node or
        name column) for the rectangles' names.  Runs tplanctl show (found
        at $TPLAN_TPLANCTL, beside libtplan.so, or on PATH; tplan.Error
        ENOENT says where it looked) on the table as planned; Error EINVAL
        when the table was planned again since this result."""
        from .show import draw
        t = self.table
        tensors = t._tensors()
        if [x.offset for x in tensors] != list(self.offsets.values()) or \
           [x.tier for x in tensors] != list(self.tiers.values()):
            raise Error(errno.EINVAL, "%s: planned again since this result:"
                        " show the newest result" % t.name)
        return draw(t.to_csv(), t.name, path, serial=self.serial,
                    aliases=self.aliases, names=names)

    def __repr__(self):
        return ("<tplan.Result %s: peak %d, lower bound %d, %d tensors>" %
                (self.strategy, self.peak, self.lower_bound,
                 len(self.offsets)))


class Table:
    """A tensor lifetime table (struct tplan_table), owned by libtplan.

    Make one with tplan.Table(rows) (or tplan.table(rows)), tplan.load(path),
    tplan.read_csv(text) or tplan.merge(tables).  plan() writes each
    tensor's offset (and tier) into it, so that save() then writes the plan,
    as tplanctl plan -o does.
    """

    def __init__(self, rows, name=None):
        """A table of rows (see from_rows()); name is what messages call it
        ("<rows>" by default)."""
        if isinstance(rows, ctypes.POINTER(_lib.tplan_table)):
            ptr = rows      # from the class methods below: libtplan's table
        else:
            made = Table.from_rows(rows)
            ptr, made._ptr = made._ptr, None
            name = made.name if name is None else name
        self._ptr = ptr
        self.name = name
        self._columns = ptr.contents.columns

    # Making one

    @classmethod
    def load(cls, path):
        """Read a CSV file (tplan_table_load)."""
        path = os.fspath(path)
        ptr = ctypes.POINTER(_lib.tplan_table)()
        err = _lib.tplan_error()
        ret = lib().tplan_table_load(path.encode(), ctypes.byref(ptr),
                                     ctypes.byref(err))
        if ret:
            raise Error(ret, err.msg.decode(errors="replace"))
        return cls(ptr, path)

    @classmethod
    def from_csv(cls, text, name="<text>"):
        """Read CSV text (tplan_table_read)."""
        if isinstance(text, str):
            text = text.encode()
        c = _lib.libc()
        buf = ctypes.create_string_buffer(text, len(text) + 1)
        f = c.fmemopen(buf, max(len(text), 1), b"r")
        if not f:
            raise from_errno(-ctypes.get_errno(), "fmemopen")
        ptr = ctypes.POINTER(_lib.tplan_table)()
        err = _lib.tplan_error()
        try:
            ret = lib().tplan_table_read(f, name.encode(), ctypes.byref(ptr),
                                         ctypes.byref(err))
        finally:
            c.fclose(f)
        if ret:
            msg = err.msg.decode(errors="replace")
            if name == _ROWS_NAME:
                msg = _rows_message(msg)
            raise Error(ret, msg)
        return cls(ptr, name)

    @classmethod
    def from_rows(cls, rows):
        """A table of rows: dicts with the columns of the CSV format (id,
        lower, upper, size; alignment, alias_of, alias_offset, model,
        priority, tiers, share_key; tier and offset of a plan), or tuples of
        id, lower, upper, size[, alignment, alias_of, alias_offset, model,
        priority, tiers, share_key].  None is an empty field.  Ids are
        numbers or names, as in a file; the rules and the messages are the
        CSV reader's, with rows counted from 0."""
        return cls.from_csv(rows_to_csv(rows), _ROWS_NAME)

    @classmethod
    def from_columns(cls, lower, upper, size, ids=None, alignment=None):
        """A table of columns: sequences of equal length (lists, arrays,
        numpy arrays) of integers, one entry a tensor; ids numbers or names
        (a name makes every id one), 0, 1, 2... by default
        (tplan_table_from_columns: no text in between).  Values are
        checked as rows' are; the table as tplan_table_check() checks it,
        its messages counting rows from 1."""
        n = len(lower)
        cols = {"lower": lower, "upper": upper, "size": size}
        if alignment is not None:
            cols["alignment"] = alignment
        if ids is not None:
            cols["id"] = ids
        for what, col in cols.items():
            if len(col) != n:
                raise Error(errno.EINVAL, "from_columns: %s has %d entries,"
                            " lower %d" % (what, len(col), n))
        c = _lib.tplan_columns(count=n)
        keep = []       # the arrays c points into, alive until the call ends
        names = _id_names(ids)
        if names is not None:
            keep.append((ctypes.c_char_p * max(n, 1))(*names))
            c.names = keep[-1]
        for what, col in cols.items():
            if what == "id" and names is not None:
                continue
            keep.append(_u64_column(what, col))
            setattr(c, what, ctypes.cast(
                (ctypes.c_uint64 * max(n, 1)).from_buffer(keep[-1]),
                ctypes.POINTER(ctypes.c_uint64)))
        ptr = ctypes.POINTER(_lib.tplan_table)()
        err = _lib.tplan_error()
        ret = lib().tplan_table_from_columns(ctypes.byref(c), ctypes.byref(ptr),
                                             ctypes.byref(err))
        if ret:
            raise Error(ret, "from_columns: " +
                        err.msg.decode(errors="replace"))
        return cls(ptr, _ROWS_NAME)

    @classmethod
    def merge(cls, tables, names=None):
        """One table of several models, table k's rows as model k
        (tplan_table_merge), as tplanctl does with several files."""
        tables = list(tables)
        if not tables:
            raise Error(errno.EINVAL, "merge: no table")
        names = list(names) if names else [t.name for t in tables]
        ptrs = (ctypes.POINTER(_lib.tplan_table) * len(tables))(
            *[t._live() for t in tables])
        cnames = (ctypes.c_char_p * len(tables))(
            *[n.encode() for n in names])
        ptr = ctypes.POINTER(_lib.tplan_table)()
        err = _lib.tplan_error()
        ret = lib().tplan_table_merge(ptrs, len(tables), cnames,
                                      ctypes.byref(ptr), ctypes.byref(err))
        if ret:
            raise Error(ret, err.msg.decode(errors="replace"))
        return cls(ptr, "+".join(names))

    # Freeing

    def close(self):
        """Free the table now (else when it is collected)."""
        ptr, self._ptr = self._ptr, None
        if ptr:
            lib().tplan_table_free(ptr)

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _live(self):
        if not self._ptr:
            raise Error(errno.EBADF, "table %s: closed" % self.name)
        return self._ptr

    # Reading

    def _tensors(self):
        t = self._live().contents
        return t.tensors[:t.count] if t.count else []

    def __len__(self):
        return self._live().contents.count

    @property
    def columns(self):
        return self._live().contents.columns

    @property
    def record(self):
        """How the offsets were made, as a plan file's "# tplan:" line
        records it (struct tplan_record), and plan() sets it: a dict with
        aliases (bool), mode ("serial", "concurrent" or None) and tiers
        (the tier capacities, or None).  save() writes it back."""
        r = self._live().contents.record
        mode = None
        if r.flags & _lib.TPLAN_RECORD_SERIAL:
            mode = "serial"
        elif r.flags & _lib.TPLAN_RECORD_CONCURRENT:
            mode = "concurrent"
        tiers = None
        if r.flags & _lib.TPLAN_RECORD_TIERS:
            tiers = list(r.tier_capacity[:r.tier_count])
        return {"aliases": bool(r.flags & _lib.TPLAN_RECORD_ALIASES),
                "mode": mode, "tiers": tiers}

    @property
    def models(self):
        """How many models the table holds (tplan_table_count_models)."""
        return lib().tplan_table_count_models(self._live())

    def ids(self):
        """Each tensor's id, in row order: its name for a table of names."""
        t = self._live().contents
        if t.names:
            return [t.names[i].decode() for i in range(t.count)]
        return [t.tensors[i].id for i in range(t.count)]

    def keys(self):
        """What Result.offsets is keyed by: ids, or (model, id) pairs for a
        table with a model column."""
        ids = self.ids()
        if self.columns & _lib.TPLAN_COLUMN_MODEL:
            t = self._tensors()
            return [(t[i].model, k) for i, k in enumerate(ids)]
        return ids

    def rows(self):
        """The rows as dicts (every column, offset and tier included)."""
        t = self._live().contents
        ids = self.ids()
        out = []
        for i in range(t.count):
            x = t.tensors[i]
            alias = None
            if x.flags & _lib.TPLAN_TENSOR_ALIAS:
                alias = ids[x.alias_of] if t.names else x.alias_of
            out.append({
                "id": ids[i], "lower": x.lower, "upper": x.upper,
                "size": x.size, "alignment": x.alignment, "alias_of": alias,
                "alias_offset": x.alias_offset, "model": x.model,
                "priority": x.priority,
                "tiers": "".join(str(k) for k in range(_lib.TPLAN_MAX_TIERS)
                                 if x.tiers >> k & 1),
                "share_key": x.share_key, "tier": x.tier, "offset": x.offset,
            })
        return out

    # Writing

    def to_csv(self):
        """The table as CSV text (tplan_table_write): the source's optional
        columns, then offset."""
        c = _lib.libc()
        buf = ctypes.c_void_p()
        size = ctypes.c_size_t()
        f = c.open_memstream(ctypes.byref(buf), ctypes.byref(size))
        if not f:
            raise from_errno(-ctypes.get_errno(), "open_memstream")
        try:
            ret = lib().tplan_table_write(self._live(), f)
        finally:
            c.fclose(f)
            text = ctypes.string_at(buf, size.value) if buf else b""
            c.free(buf)
        if ret:
            raise from_errno(ret, "write")
        return text.decode()

    def write(self, file):
        """Write the table to a file object (text or binary)."""
        text = self.to_csv()
        if isinstance(file, io.TextIOBase):
            file.write(text)
        else:
            file.write(text.encode())

    def save(self, path):
        """Write the table to a file (tplan_table_save); "-" is stdout."""
        path = os.fspath(path)
        err = _lib.tplan_error()
        if path == "-":
            import sys
            sys.stdout.flush()
        ret = lib().tplan_table_save(self._live(), path.encode(),
                                     ctypes.byref(err))
        if ret:
            raise Error(ret, err.msg.decode(errors="replace"))

    # Planning and checking

    def plan(self, strategy="auto", capacity=0, tiers=None, budget=0,
             time_limit=None, small_below=0, aliases=False, serial=False,
             concurrent=False, svg=None):
        """Plan the table in this process (tplan_table_plan), with the
        options of tplanctl plan (see make_options()).  Returns a Result;
        raises Error: ENOSPC when the plan does not fit (error.result holds
        the peak), ETIMEDOUT when the budget ran out, EINVAL for a table or
        options the planner rejects (error.defect, error.tensors).  svg: a
        path to draw the plan to (Result.show()), as tplanctl plan --svg."""
        opts = make_options(strategy, capacity, tiers, budget, time_limit,
                            small_below, aliases, serial, concurrent)
        result = self._plan(opts)
        if svg is not None:
            result.show(svg)
        return result

    def _plan(self, opts):
        res = _lib.tplan_result()
        ret = lib().tplan_table_plan(self._live(), ctypes.byref(opts),
                                     ctypes.byref(res))
        if ret:
            raise self._failure(opts, res, ret)
        self._set_tier_column(opts.tier_count > 1)
        return Result(self, res, opts, self._apart(opts))

    def _set_tier_column(self, tiered):
        t = self._live().contents
        t.columns = self._columns | (_lib.TPLAN_COLUMN_TIER if tiered else 0)

    def _apart(self, opts, plan_one=None):
        if self.models < 2:
            return None
        apart = _lib.u64()
        fn = _lib.plan_model_fn(plan_one) if plan_one else \
            ctypes.cast(None, _lib.plan_model_fn)
        ret = lib().tplan_table_plan_apart(self._live(), ctypes.byref(opts),
                                           fn, None, ctypes.byref(apart))
        if ret:
            raise from_errno(ret, "%s: planning the models apart" % self.name)
        return apart.value

    def _describe(self, index):
        key = self.keys()[index]
        if isinstance(key, tuple):
            return "id %s of model %d" % (key[1], key[0])
        return "id %s" % (key,)

    def _finding_error(self, ret, f, why):
        keys = self.keys()
        names = [self._describe(f.index)]
        tensors = [keys[f.index]]
        if f.other != f.index:
            names.append(self._describe(f.other))
            tensors.append(keys[f.other])
        return Error(ret, "%s: %s%s: tensor %s" % (
            self.name, why, defect_name(f.defect),
            " and tensor ".join(names)),
            defect=defect_name(f.defect), tensors=tensors)

    def _input_finding(self, opts):
        """What tplan_check_input() would say, as far as the library tells:
        its table rules through tplan_table_validate(), then the tiers,
        aliases and share keys checked here."""
        finding = _lib.tplan_finding
        f = finding()
        lib().tplan_table_validate(self._live(), 0, ctypes.byref(f))
        if f.defect in _TABLE_DEFECTS:
            return f
        t = self._tensors()
        pinned = _lib.TPLAN_TENSOR_PINNED
        if (f.defect == _lib.TPLAN_DEFECT_OVERLAP and t[f.index].flags & pinned
                and t[f.other].flags & pinned):
            # both offsets were given: the pins themselves conflict
            return finding(_lib.TPLAN_DEFECT_PIN_OVERLAP, f.index, f.other)
        count = max(opts.tier_count, 1)
        for i, x in enumerate(t):
            if x.tiers and not x.tiers & ((1 << count) - 1):
                return finding(_lib.TPLAN_DEFECT_TIER_UNKNOWN, i, i)
        shares = {}
        for i, x in enumerate(t):
            if x.share_key:
                j = shares.setdefault(x.share_key, i)
                if t[j].size != x.size:
                    return finding(_lib.TPLAN_DEFECT_SHARE_SIZE, i, j)
        if opts.flags & _lib.TPLAN_PLAN_ALIASES:
            ids = {(x.model, x.id) for x in t}
            for i, x in enumerate(t):
                if x.flags & _lib.TPLAN_TENSOR_ALIAS and \
                   (x.model, x.alias_of) not in ids:
                    return finding(_lib.TPLAN_DEFECT_ALIAS_UNKNOWN, i, i)
        return None

    def _failure(self, opts, res, ret, device=False):
        """The Error for a failed plan or submit, worded as tplanctl's."""
        figures = {"peak": res.peak, "lower_bound": res.lower_bound,
                   "tier_peaks": list(res.tier_peak)}
        if ret == -errno.ENOSPC and opts.tier_count > 1:
            parts = ["tier %d peak %d of %d" % (k, res.tier_peak[k],
                                                opts.tier_capacity[k])
                     for k in range(opts.tier_count)]
            return Error(ret, "%s: does not fit in its tiers: %s (or a tensor"
                         " fits in none of the tiers it allows)" %
                         (self.name, ", ".join(parts)), result=figures)
        if ret == -errno.ENOSPC and (not opts.capacity or
                                     res.peak <= opts.capacity):
            return Error(ret, "%s: does not fit in the device's free memory:"
                         " peak %d (lower bound %d)" %
                         (self.name, res.peak, res.lower_bound),
                         result=figures)
        if ret == -errno.ENOSPC:
            return Error(ret, "%s: does not fit in %d bytes: peak %d (lower "
                         "bound %d)" % (self.name, opts.capacity, res.peak,
                                        res.lower_bound), result=figures)
        if ret == -errno.ETIMEDOUT:
            if opts.budget:
                return Error(ret, "%s: work budget of %d units exhausted" %
                             (self.name, opts.budget))
            return Error(ret, "%s: the default work budget exhausted (raise "
                         "it with budget=)" % self.name)
        if ret in (-errno.EINVAL, -errno.EOVERFLOW):
            f = self._input_finding(opts)
            if f is not None:
                return self._finding_error(ret, f, "")
            return Error(ret, "%s: invalid options or table" % self.name)
        return from_errno(ret, self.name)

    def validate(self, capacity=0):
        """Check the table's offsets (tplan_table_validate): alignment,
        capacity, no two tensors alive at once sharing a byte.  Returns None
        for a valid plan; raises Error (EINVAL) naming the defect and the
        tensors (error.defect, error.tensors) otherwise."""
        f = _lib.tplan_finding()
        ret = lib().tplan_table_validate(
            self._live(), parse_size(capacity or 0, "capacity"),
            ctypes.byref(f))
        if ret and f.defect:
            raise self._finding_error(ret, f, "invalid plan: ")
        if ret:
            raise from_errno(ret, self.name)

    def __repr__(self):
        if not self._ptr:
            return "<tplan.Table %s (closed)>" % self.name
        return "<tplan.Table %s: %d tensors>" % (self.name, len(self))


def table(rows):
    """A Table of rows (see Table.from_rows; Table.from_columns for large
    tables)."""
    return Table.from_rows(rows)


def load(path):
    """A Table read from a CSV file (tplan_table_load)."""
    return Table.load(path)


def read_csv(text, name="<text>"):
    """A Table read from CSV text (tplan_table_read)."""
    return Table.from_csv(text, name)


def merge(tables, names=None):
    """One Table of several models (tplan_table_merge)."""
    return Table.merge(tables, names)


_ONE_TABLE = (Table, ImportedRows, str, os.PathLike)


def _as_table(t):
    if isinstance(t, Table):
        return t
    if isinstance(t, ImportedRows):
        # an importer's table, as tplan-import would write it
        return Table.from_csv(t.csv(), "<imported>")
    if isinstance(t, (str, os.PathLike)):
        return Table.load(t)
    return Table.from_rows(t)


def as_table(tables):
    """A Table from a Table, an importer's table (from_torch(), ...), a
    path, rows, or a list of several of those (one model each, merged as
    tplanctl merges several files)."""
    if isinstance(tables, _ONE_TABLE):
        return _as_table(tables)
    tables = list(tables)
    if tables and all(isinstance(t, _ONE_TABLE) for t in tables):
        if len(tables) == 1:
            return _as_table(tables[0])
        return Table.merge([_as_table(t) for t in tables])
    return Table.from_rows(tables)


def plan(tables, **options):
    """Plan a table (a Table, a path, rows) or several models (a list of
    Tables or paths, merged) like tplanctl plan FILE... does.  The options
    are Table.plan()'s: strategy, capacity, tiers, budget, time_limit (ms),
    small_below, aliases, serial, concurrent; svg=PATH draws the plan there
    (Result.show())."""
    return as_table(tables).plan(**options)
