"""The perf bench's rows as perf.py's arguments and data: one row per program and board."""

load("//models:facts.bzl", "firmware_label")
load("//platforms:boards.bzl", "EMULATED_BOARDS", "MODELLED_BOARDS")

def perf_row_args(rows):
    """perf.py's `--row` arguments for `rows`, (program, board) pairs (a models.bzl variant and a
    board() struct)."""
    return [arg for v, board in rows for arg in [
        "--row",
        v.name,
        board.name,
        "$(rootpath {})".format(firmware_label(v, board)),
        board.description_path,
        "$(rootpath {}.size.json)".format(firmware_label(v, board)),
        "$(rootpath {}.ops.json)".format(v.label),
        "$(rootpath {}_firmware_requirements)".format(v.label),
        "$(rootpath {}.plan.json)".format(v.label),
    ]]

def perf_row_data(rows):
    """The files of those rows: firmware, size reports, operator lists, requirements and memory
    plans, and the boards."""
    return [board.info for board in EMULATED_BOARDS + MODELLED_BOARDS] + [
        firmware_label(v, board) + suffix
        for v, board in rows
        for suffix in ["", ".size.json"]
    ] + depset([v.label + suffix for v, _ in rows for suffix in [".ops.json", "_firmware_requirements", ".plan.json"]]).to_list()

def cores_row_name(variant, board):
    """The one-core firmware target of `variant` on two-core `board` (firmware_with_cores)."""
    return "{}_{}_one_core".format(variant.name, board.name)

def cores_row_args(rows):
    """perf.py's `--cores-row` arguments: each (program, two-core board) pair's firmware built for
    one core (`:<cores_row_name>`, declared next to the bench) and for two (the default)."""
    return [arg for v, board in rows for arg in [
        "--cores-row",
        v.name,
        board.name,
        "$(rootpath :{})".format(cores_row_name(v, board)),
        "$(rootpath {})".format(firmware_label(v, board)),
    ]]

def cores_row_data(rows):
    return [":" + cores_row_name(v, board) for v, board in rows] + [firmware_label(v, board) for v, board in rows]
