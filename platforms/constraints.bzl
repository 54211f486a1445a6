"""A constraint setting and its values, declared together: //platforms/cpu's and //platforms/fpu's."""

def constraint_setting_with_values(*, name, values):
    """Declares `constraint_setting(name)` and a `constraint_value` of it for each of `values`.

    Args:
      name: The setting's name (the package's: `cpu`, `fpu`).
      values: The names of its values (`:<value>` each).
    """
    native.constraint_setting(name = name)
    for value in values:
        native.constraint_value(
            name = value,
            constraint_setting = ":" + name,
        )
