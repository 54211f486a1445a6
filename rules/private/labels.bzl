"""tinypte's own labels, written so that they work whichever workspace is the main one.

A label string a macro passes to a rule ("//runtime") is read in the package that calls the
macro: in another workspace that has tinypte as @tinypte, that is the user's repository, not
tinypte's. `tinypte_label("//runtime")` is the canonical string of tinypte's target instead:
"//runtime:runtime" when tinypte is the main repository (so its own action keys do not change),
"@tinypte//runtime:runtime" when it is a dependency. (In Bazel 4.2.3, `Label()` in a .bzl file
resolves in that file's repository, and this file is tinypte's.)
"""

def tinypte_label(label):
    """The canonical string of `label`, a label of tinypte's own ("//runtime", "//platforms/cpu:x").

    Args:
      label: A label string relative to tinypte's root ("//pkg:name" or "//pkg").

    Returns:
      "//pkg:name" when tinypte is the main repository, "@tinypte//pkg:name" otherwise.
    """
    return str(Label(label))

def label_string(label):
    """`label` as a string: a `Label` (already resolved in the repository that wrote it, e.g.
    `Label("//platforms/pico2w:boot_block.c")` in one of tinypte's board.bzl files) by its
    canonical string, a string as it is (read later in the package that uses it)."""
    return str(label) if type(label) == "Label" else label

# "@tinypte" when tinypte is a dependency, "" when it is the main repository.
TINYPTE_REPOSITORY = tinypte_label("//:WORKSPACE").split("//")[0]

def current_package():
    """The canonical label of the package being loaded ("//pkg" in the main repository,
    "@repo//pkg" in another), to compare with canonical strings from `tinypte_label`."""
    repository = native.repository_name()
    return ("" if repository == "@" else repository) + "//" + native.package_name()
