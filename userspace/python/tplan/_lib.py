# SPDX-License-Identifier: MIT
"""ctypes declarations of libtplan's C API and the loading of libtplan.so.

The structures mirror userspace/lib/include/libtplan.h,
planner/tplan_types.h and uapi/linux/tplan.h field for field; tests/python/test_binding.py compiles a C
program that prints every size and offset and compares them with these, so
that the two cannot drift apart.

The library is found, in this order, at $TPLAN_LIBRARY; in this package
(tplan/libtplan.so.0: pip install ./userspace/python from the source tree
bundles it, see setup.py); in the build tree
next to this package (build/libtplan.so.0 from userspace/python/tplan); next
to an installed package (PREFIX/lib/libtplan.so.0 from
PREFIX/lib/python3/dist-packages/tplan); through ctypes.util.find_library;
as "libtplan.so.0" on the dynamic linker's path.  It is loaded on first use,
so that "import tplan" works without it.
"""
import ctypes
import ctypes.util
import os
import threading

u32 = ctypes.c_uint32
u64 = ctypes.c_uint64

# planner/tplan_types.h
TPLAN_MAX_TIERS = 4
TPLAN_DEFAULT_PRIORITY = 1
TPLAN_DEFAULT_BUDGET = 160000000
TPLAN_TENSOR_ALIAS = 0x1
TPLAN_TENSOR_PINNED = 0x2
TPLAN_TENSOR_HINT = 0x4
TPLAN_GAP_WINDOW = 0x1
TPLAN_PLAN_ALIASES = 0x1
TPLAN_PLAN_SERIAL = 0x2
TPLAN_EXPORT_CLOEXEC = 0x00080000
TPLAN_EXPORT_RDWR = 0x2
# enum tplan_strategy in value order: 0, what a zeroed tplan_options asks, is auto
STRATEGIES = ("auto", "naive", "greedy-size", "strip", "search")
SEARCH_STATUSES = ("not run", "fit", "impossible", "gave up")
# enum tplan_spill_strategy, by the names tplanctl --spill-strategy takes
SPILL_STRATEGIES = ("default", "furthest", "ga")
# enum tplan_defect (the ones the binding looks for itself)
TPLAN_DEFECT_LIFETIME = 1
TPLAN_DEFECT_ALIGNMENT = 2
TPLAN_DEFECT_FLAGS = 3
TPLAN_DEFECT_DUPLICATE_ID = 4
TPLAN_DEFECT_TOO_LARGE = 5
TPLAN_DEFECT_ALIAS_UNKNOWN = 9
TPLAN_DEFECT_TIER_UNKNOWN = 14
TPLAN_DEFECT_SHARE_SIZE = 17
TPLAN_DEFECT_OVERLAP = 8
TPLAN_DEFECT_PIN_OVERLAP = 34

# userspace/lib/include/libtplan.h
TPLAN_COLUMN_ALIGNMENT = 1 << 0
TPLAN_COLUMN_ALIAS_OF = 1 << 1
TPLAN_COLUMN_OFFSET = 1 << 2
TPLAN_COLUMN_ALIAS_OFFSET = 1 << 3
TPLAN_COLUMN_MODEL = 1 << 4
TPLAN_COLUMN_PRIORITY = 1 << 5
TPLAN_COLUMN_TIERS = 1 << 6
TPLAN_COLUMN_SHARE_KEY = 1 << 7
TPLAN_COLUMN_TIER = 1 << 8
TPLAN_COLUMN_HINT = 1 << 12
TPLAN_COLUMN_GAPS = 1 << 13
# struct tplan_record.flags: what a plan file's "# tplan:" line records
TPLAN_RECORD_ALIASES = 1 << 0
TPLAN_RECORD_SERIAL = 1 << 1
TPLAN_RECORD_CONCURRENT = 1 << 2
TPLAN_RECORD_TIERS = 1 << 3

# uapi/linux/tplan.h
TPLAN_ABI_VERSION = 1
TPLAN_MAX_POOLS = 4
TPLAN_SUBMIT_DRY_RUN = 0x1
TPLAN_SUBMIT_ALIASES = 0x2
TPLAN_SUBMIT_TIERED = 0x4
TPLAN_SUBMIT_SERIAL = 0x8

# uapi/linux/tplan_edu.h: the jobs of a device that runs them
TPLAN_EDU_PLACE_REGION = 1
TPLAN_EDU_PLACE_USER = 2
TPLAN_EDU_MAX_COPIES = 256
TPLAN_EDU_MAX_JOB_BYTES = 0x100000
TPLAN_EDU_DEFAULT_TIMEOUT_MS = 10000
TPLAN_EDU_MAX_TIMEOUT_MS = 120000


class tplan_tensor(ctypes.Structure):
    _fields_ = [
        ("id", u64),
        ("lower", u64),
        ("upper", u64),
        ("size", u64),
        ("alignment", u64),
        ("alias_of", u64),
        ("offset", u64),
        ("flags", u32),
        ("pad", u32),
        ("alias_offset", u64),
        ("priority", u32),
        ("tiers", u32),
        ("tier", u32),
        ("model", u32),
        ("share_key", u64),
        ("hint", u64),
        ("gap_first", u32),
        ("gap_count", u32),
    ]


class tplan_gap(ctypes.Structure):
    _fields_ = [
        ("lower", u64),
        ("upper", u64),
        ("from", u64),
        ("to", u64),
        ("flags", u32),
        ("pad", u32),
    ]


class tplan_options(ctypes.Structure):
    _fields_ = [
        ("strategy", u32),
        ("version", u32),
        ("capacity", u64),
        ("budget", u64),
        ("time_limit_ns", u64),
        ("small_below", u64),
        ("flags", u32),
        ("tier_count", u32),
        ("tier_capacity", u64 * TPLAN_MAX_TIERS),
        ("gaps", ctypes.POINTER(tplan_gap)),
        ("gap_count", u32),
        ("pad", u32),
        ("reserved", u64 * 4),
    ]


class tplan_result(ctypes.Structure):
    _fields_ = [
        ("peak", u64),
        ("lower_bound", u64),
        ("naive_total", u64),
        ("work", u64),
        ("time_ns", u64),
        ("strategy", u32),
        ("search", u32),
        ("tier_peak", u64 * TPLAN_MAX_TIERS),
        ("tier_weight", u64 * TPLAN_MAX_TIERS),
        ("reserved", u64 * 4),
    ]


class tplan_finding(ctypes.Structure):
    _fields_ = [
        ("defect", u32),
        ("index", u32),
        ("other", u32),
    ]


class tplan_record(ctypes.Structure):
    _fields_ = [
        ("flags", u32),
        ("tier_count", u32),
        ("tier_capacity", u64 * TPLAN_MAX_TIERS),
    ]


class tplan_table(ctypes.Structure):
    _fields_ = [
        ("tensors", ctypes.POINTER(tplan_tensor)),
        ("names", ctypes.POINTER(ctypes.c_char_p)),
        ("count", u32),
        ("columns", u32),
        ("use_step", ctypes.POINTER(u64)),
        ("use_start", ctypes.POINTER(u32)),
        ("piece", ctypes.POINTER(u32)),
        ("host_offset", ctypes.POINTER(u64)),
        ("gaps", ctypes.POINTER(tplan_gap)),
        ("gap_count", u32),
        ("extra_header", ctypes.c_char_p),
        ("extra", ctypes.POINTER(ctypes.c_char_p)),
        ("record", tplan_record),
    ]


class tplan_error(ctypes.Structure):
    _fields_ = [
        ("msg", ctypes.c_char * 512),
    ]


class tplan_pool_info(ctypes.Structure):
    _fields_ = [
        ("size", u64),
        ("used", u64),
        ("free", u64),
        ("largest_free", u64),
        ("free_regions", u32),
        ("tier", u32),
        ("reserved", u64 * 2),
    ]


class tplan_info(ctypes.Structure):
    _fields_ = [
        ("abi_version", u32),
        ("pool_count", u32),
        ("max_tensors", u32),
        ("max_plans", u32),
        ("region_align", u64),
        ("default_budget", u64),
        ("max_budget", u64),
        ("max_submit_bytes", u64),
        ("plans_held", u32),
        ("max_submits", u32),
        ("max_device_plans", u32),
        ("pad", u32),
        ("max_file_keys", u64),
        ("max_device_keys", u64),
        ("reserved", u64 * 1),
        ("pools", tplan_pool_info * TPLAN_MAX_POOLS),
    ]


class tplan_plan_region(ctypes.Structure):
    _fields_ = [
        ("peak", u64),
        ("weight", u64),
        ("region_offset", u64),
        ("region_size", u64),
        ("mmap_offset", u64),
        ("handle", u32),
        ("pad", u32),
    ]


class tplan_submit_params(ctypes.Structure):
    _fields_ = [
        ("flags", u32),
        ("group", u32),
        ("tensor_mmap", ctypes.POINTER(u64)),
        ("reserved", u64 * 4),
    ]


class tplan_submission(ctypes.Structure):
    _fields_ = [
        ("plan_id", u64),
        ("shared_bytes", u64),
        ("pool", u32),
        ("regions", tplan_plan_region * TPLAN_MAX_POOLS),
    ]


class tplan_piece(ctypes.Structure):
    _fields_ = [
        ("tensor", u32),
        ("piece", u32),
        ("lower", u64),
        ("upper", u64),
        ("offset", u64),
        ("host_offset", u64),
    ]


class tplan_spill_result(ctypes.Structure):
    _fields_ = [
        ("moved", u64),
        ("moved_bound", u64),
        ("host_peak", u64),
        ("peak", u64),
        ("live_peak", u64),
        ("work", u64),
        ("pieces", u32),
        ("strategy", u32),
        ("fail_step", u64),
        ("fail_bytes", u64),
    ]


class tplan_spill_params(ctypes.Structure):
    _fields_ = [
        ("flags", u32),
        ("strategy", u32),
        ("capacity", u64),
        ("budget", u64),
        ("reserved", u64 * 4),
    ]


class tplan_columns(ctypes.Structure):
    _fields_ = [
        ("count", u32),
        ("flags", u32),
        ("id", ctypes.POINTER(u64)),
        ("names", ctypes.POINTER(ctypes.c_char_p)),
        ("lower", ctypes.POINTER(u64)),
        ("upper", ctypes.POINTER(u64)),
        ("size", ctypes.POINTER(u64)),
        ("alignment", ctypes.POINTER(u64)),
    ]


class tplan_uses(ctypes.Structure):
    _fields_ = [
        ("step", ctypes.POINTER(u64)),
        ("start", ctypes.POINTER(u32)),
    ]


class tplan_edu_place(ctypes.Structure):
    _fields_ = [
        ("kind", u32),
        ("slot", u32),
        ("plan_id", u64),
        ("offset", u64),
    ]


class tplan_edu_copy(ctypes.Structure):
    _fields_ = [
        ("src", tplan_edu_place),
        ("dst", tplan_edu_place),
        ("size", u64),
    ]


# Every structure above, by its C name: what the layout test compares.
STRUCTS = (tplan_tensor, tplan_gap, tplan_options, tplan_result, tplan_finding,
           tplan_record, tplan_table, tplan_error, tplan_pool_info, tplan_info,
           tplan_plan_region, tplan_submit_params, tplan_submission,
           tplan_piece, tplan_spill_result, tplan_spill_params, tplan_uses,
           tplan_edu_place, tplan_edu_copy)

# The constants above with the C macro or enumerator each copies.
CONSTANTS = {
    "TPLAN_MAX_TIERS": TPLAN_MAX_TIERS,
    "TPLAN_DEFAULT_PRIORITY": TPLAN_DEFAULT_PRIORITY,
    "TPLAN_DEFAULT_BUDGET": TPLAN_DEFAULT_BUDGET,
    "TPLAN_TENSOR_ALIAS": TPLAN_TENSOR_ALIAS,
    "TPLAN_DEFECT_OVERLAP": TPLAN_DEFECT_OVERLAP,
    "TPLAN_DEFECT_PIN_OVERLAP": TPLAN_DEFECT_PIN_OVERLAP,
    "TPLAN_TENSOR_PINNED": TPLAN_TENSOR_PINNED,
    "TPLAN_TENSOR_HINT": TPLAN_TENSOR_HINT,
    "TPLAN_GAP_WINDOW": TPLAN_GAP_WINDOW,
    "TPLAN_COLUMN_HINT": TPLAN_COLUMN_HINT,
    "TPLAN_COLUMN_GAPS": TPLAN_COLUMN_GAPS,
    "TPLAN_RECORD_ALIASES": TPLAN_RECORD_ALIASES,
    "TPLAN_RECORD_SERIAL": TPLAN_RECORD_SERIAL,
    "TPLAN_RECORD_CONCURRENT": TPLAN_RECORD_CONCURRENT,
    "TPLAN_RECORD_TIERS": TPLAN_RECORD_TIERS,
    "TPLAN_PLAN_ALIASES": TPLAN_PLAN_ALIASES,
    "TPLAN_PLAN_SERIAL": TPLAN_PLAN_SERIAL,
    "TPLAN_EXPORT_CLOEXEC": TPLAN_EXPORT_CLOEXEC,
    "TPLAN_EXPORT_RDWR": TPLAN_EXPORT_RDWR,
    "TPLAN_EDU_PLACE_REGION": TPLAN_EDU_PLACE_REGION,
    "TPLAN_EDU_PLACE_USER": TPLAN_EDU_PLACE_USER,
    "TPLAN_EDU_MAX_COPIES": TPLAN_EDU_MAX_COPIES,
    "TPLAN_EDU_MAX_JOB_BYTES": TPLAN_EDU_MAX_JOB_BYTES,
    "TPLAN_EDU_DEFAULT_TIMEOUT_MS": TPLAN_EDU_DEFAULT_TIMEOUT_MS,
    "TPLAN_EDU_MAX_TIMEOUT_MS": TPLAN_EDU_MAX_TIMEOUT_MS,
    "TPLAN_STRATEGY_COUNT": len(STRATEGIES),
    "TPLAN_STRATEGY_AUTO": STRATEGIES.index("auto"),
    "TPLAN_SEARCH_GAVE_UP": SEARCH_STATUSES.index("gave up"),
    "TPLAN_SPILL_DEFAULT": SPILL_STRATEGIES.index("default"),
    "TPLAN_SPILL_FURTHEST": SPILL_STRATEGIES.index("furthest"),
    "TPLAN_SPILL_GA": SPILL_STRATEGIES.index("ga"),
    "TPLAN_DEFECT_LIFETIME": TPLAN_DEFECT_LIFETIME,
    "TPLAN_DEFECT_ALIGNMENT": TPLAN_DEFECT_ALIGNMENT,
    "TPLAN_DEFECT_FLAGS": TPLAN_DEFECT_FLAGS,
    "TPLAN_DEFECT_DUPLICATE_ID": TPLAN_DEFECT_DUPLICATE_ID,
    "TPLAN_DEFECT_TOO_LARGE": TPLAN_DEFECT_TOO_LARGE,
    "TPLAN_DEFECT_ALIAS_UNKNOWN": TPLAN_DEFECT_ALIAS_UNKNOWN,
    "TPLAN_DEFECT_TIER_UNKNOWN": TPLAN_DEFECT_TIER_UNKNOWN,
    "TPLAN_DEFECT_SHARE_SIZE": TPLAN_DEFECT_SHARE_SIZE,
    "TPLAN_COLUMN_ALIGNMENT": TPLAN_COLUMN_ALIGNMENT,
    "TPLAN_COLUMN_ALIAS_OF": TPLAN_COLUMN_ALIAS_OF,
    "TPLAN_COLUMN_OFFSET": TPLAN_COLUMN_OFFSET,
    "TPLAN_COLUMN_ALIAS_OFFSET": TPLAN_COLUMN_ALIAS_OFFSET,
    "TPLAN_COLUMN_MODEL": TPLAN_COLUMN_MODEL,
    "TPLAN_COLUMN_PRIORITY": TPLAN_COLUMN_PRIORITY,
    "TPLAN_COLUMN_TIERS": TPLAN_COLUMN_TIERS,
    "TPLAN_COLUMN_SHARE_KEY": TPLAN_COLUMN_SHARE_KEY,
    "TPLAN_COLUMN_TIER": TPLAN_COLUMN_TIER,
    "TPLAN_ABI_VERSION": TPLAN_ABI_VERSION,
    "TPLAN_MAX_POOLS": TPLAN_MAX_POOLS,
    "TPLAN_SUBMIT_DRY_RUN": TPLAN_SUBMIT_DRY_RUN,
    "TPLAN_SUBMIT_ALIASES": TPLAN_SUBMIT_ALIASES,
    "TPLAN_SUBMIT_TIERED": TPLAN_SUBMIT_TIERED,
    "TPLAN_SUBMIT_SERIAL": TPLAN_SUBMIT_SERIAL,
}

P = ctypes.POINTER
c_int = ctypes.c_int
c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p

# tplan_plan_model_fn, for tplan_table_plan_apart()
plan_model_fn = ctypes.CFUNCTYPE(c_int, c_void_p, P(tplan_table),
                                 P(tplan_options), P(tplan_result))

# name: (return type, argument types), as libtplan.h declares them
PROTOTYPES = {
    "tplan_version": (c_char_p, []),
    "tplan_table_read": (c_int, [c_void_p, c_char_p, P(P(tplan_table)),
                                 P(tplan_error)]),
    "tplan_table_load": (c_int, [c_char_p, P(P(tplan_table)),
                                 P(tplan_error)]),
    "tplan_table_write": (c_int, [P(tplan_table), c_void_p]),
    "tplan_table_save": (c_int, [P(tplan_table), c_char_p, P(tplan_error)]),
    "tplan_table_free": (None, [P(tplan_table)]),
    "tplan_table_merge": (c_int, [P(P(tplan_table)), u32, P(c_char_p),
                                  P(P(tplan_table)), P(tplan_error)]),
    "tplan_table_count_models": (u32, [P(tplan_table)]),
    "tplan_table_from_columns": (c_int, [P(tplan_columns), P(P(tplan_table)),
                                         P(tplan_error)]),
    "tplan_table_plan": (c_int, [P(tplan_table), P(tplan_options),
                                 P(tplan_result)]),
    "tplan_table_plan_err": (c_int, [P(tplan_table), P(tplan_options),
                                     P(tplan_result), P(tplan_error)]),
    "tplan_table_check": (c_int, [P(tplan_table), P(tplan_options),
                                  P(tplan_error)]),
    "tplan_table_record": (None, [P(tplan_table), P(tplan_options)]),
    "tplan_table_validate": (c_int, [P(tplan_table), u64, P(tplan_finding)]),
    "tplan_table_plan_apart": (c_int, [P(tplan_table), P(tplan_options),
                                       plan_model_fn, c_void_p, P(u64)]),
    "tplan_table_plan_spill": (c_int, [P(tplan_table),
                                       P(tplan_spill_params), P(tplan_piece),
                                       u32, P(tplan_spill_result)]),
    "tplan_tensors_plan": (c_int, [P(tplan_tensor), u32, P(tplan_options),
                                   P(tplan_result)]),
    "tplan_tensors_check": (c_int, [P(tplan_tensor), u32, P(tplan_options),
                                    P(tplan_finding)]),
    "tplan_tensors_check_gaps": (c_int, [P(tplan_tensor), u32, P(tplan_gap),
                                         u32, P(tplan_finding)]),
    "tplan_tensors_lower_bound": (c_int, [P(tplan_tensor), u32,
                                          P(tplan_options), P(u64)]),
    "tplan_tensors_validate": (c_int, [P(tplan_tensor), u32,
                                       P(tplan_options), P(tplan_finding)]),
    "tplan_tensors_plan_spill": (c_int, [P(tplan_tensor), u32, P(tplan_uses),
                                         P(tplan_spill_params),
                                         P(tplan_piece), u32,
                                         P(tplan_spill_result)]),
    "tplan_tensors_check_spill": (c_int, [P(tplan_tensor), u32,
                                          P(tplan_uses), P(tplan_finding)]),
    "tplan_tensors_max_pieces": (u32, [P(tplan_tensor), u32, P(tplan_uses)]),
    "tplan_tensors_validate_spill": (c_int, [P(tplan_tensor), u32,
                                             P(tplan_uses), P(tplan_piece),
                                             u32, u64, P(tplan_finding)]),
    "tplan_spill_strategy_name": (c_char_p, [u32]),
    "tplan_spill_strategy_from_name": (c_int, [c_char_p, P(u32)]),
    "tplan_strategy_name": (c_char_p, [u32]),
    "tplan_strategy_from_name": (c_int, [c_char_p, P(u32)]),
    "tplan_defect_name": (c_char_p, [u32]),
    "tplan_search_name": (c_char_p, [u32]),
    "tplan_device_export": (c_int, [c_void_p, u64, u32, u32, P(c_int)]),
    "tplan_device_export_at": (c_int, [c_void_p, u64, u64, u32, P(c_int)]),
    "tplan_device_find": (c_int, [c_char_p, ctypes.c_size_t]),
    "tplan_device_find_at": (c_int, [ctypes.c_uint, c_char_p,
                                     ctypes.c_size_t, c_char_p,
                                     ctypes.c_size_t]),
    "tplan_device_driver": (c_char_p, [c_void_p]),
    "tplan_device_open": (c_int, [c_char_p, P(c_void_p)]),
    "tplan_device_path": (c_char_p, [c_void_p]),
    "tplan_device_close": (None, [c_void_p]),
    "tplan_device_get_info": (c_int, [c_void_p, P(tplan_info)]),
    "tplan_device_submit": (c_int, [c_void_p, P(tplan_table),
                                    P(tplan_options),
                                    P(tplan_submit_params), P(tplan_result),
                                    P(tplan_submission)]),
    "tplan_device_submit_spill": (c_int, [c_void_p, P(tplan_table),
                                          P(tplan_spill_params),
                                          P(tplan_piece), u32,
                                          P(tplan_spill_result),
                                          P(tplan_submission)]),
    "tplan_device_release": (c_int, [c_void_p, u64]),
    "tplan_device_map": (c_int, [c_void_p, P(tplan_submission), u32,
                                 P(c_void_p)]),
    "tplan_device_unmap": (c_int, [P(tplan_submission), u32, c_void_p]),
    "tplan_device_job": (c_int, [c_void_p, P(tplan_edu_copy), u32, u32,
                                 P(c_int)]),
    "tplan_fence_wait": (c_int, [c_int, c_int]),
}

_lock = threading.Lock()
_lib = None
_libc = None


def candidates():
    """Where libtplan.so is looked for, in order (see the module's doc)."""
    out = []
    env = os.environ.get("TPLAN_LIBRARY")
    if env:
        out.append(env)
    here = os.path.dirname(os.path.abspath(__file__))
    # bundled: a package built from the source tree carries it (setup.py)
    out.append(os.path.join(here, "libtplan.so.0"))
    tree = os.path.normpath(os.path.join(here, "..", "..", ".."))
    out.append(os.path.join(tree, "build", "libtplan.so.0"))
    libdir = os.path.normpath(os.path.join(here, "..", "..", ".."))
    if os.path.basename(os.path.dirname(here)) in ("dist-packages",
                                                   "site-packages"):
        out.append(os.path.join(libdir, "libtplan.so.0"))
    found = ctypes.util.find_library("tplan")
    if found:
        out.append(found)
    out.append("libtplan.so.0")
    return out


def _declare(lib):
    for name, (restype, argtypes) in PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


def lib():
    """libtplan, loaded and declared on first use."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        env = os.environ.get("TPLAN_LIBRARY")
        for path in candidates():
            if "/" in path and not os.path.exists(path):
                tried.append(path + " (missing)")
                continue
            try:
                loaded = ctypes.CDLL(path)
            except OSError as e:
                if path == env:
                    raise OSError("TPLAN_LIBRARY=%s: %s" % (path, e)) from e
                tried.append("%s (%s)" % (path, e))
                continue
            _lib = _declare(loaded)
            _lib.tplan_path = path
            return _lib
        raise OSError("libtplan.so not found; tried: " + "; ".join(tried) +
                      " (set TPLAN_LIBRARY to its path)")


def libc():
    """The C library (fmemopen, fclose, fflush), for FILE * arguments."""
    global _libc
    with _lock:
        if _libc is None:
            c = ctypes.CDLL(None, use_errno=True)
            c.fmemopen.restype = c_void_p
            c.fmemopen.argtypes = [c_void_p, ctypes.c_size_t, c_char_p]
            c.open_memstream.restype = c_void_p
            c.open_memstream.argtypes = [P(c_void_p), P(ctypes.c_size_t)]
            c.fclose.restype = c_int
            c.fclose.argtypes = [c_void_p]
            c.free.restype = None
            c.free.argtypes = [c_void_p]
            _libc = c
        return _libc
