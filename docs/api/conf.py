"""Sphinx configuration of the API reference (built by ``python scripts/build_docs.py``)."""

from __future__ import annotations

import openhearts

project = "OpenHearts"
author = "OpenHearts contributors"
copyright = "OpenHearts contributors, MIT licence"
release = openhearts.__version__
version = release

extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode"]

# Each object is documented once, in the module that defines it (the package and
# openhearts.bots re-export names in __all__; those pages keep only their summary).
autodoc_default_options = {"members": True, "show-inheritance": True, "ignore-module-all": True}
# A method without a docstring of its own shows none, rather than its base class's
# (Textual's and Starlette's docstrings are written for their own documentation tools).
autodoc_inherit_docstrings = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autoclass_content = "class"
# A short name such as :mod:`table` written inside a module means the module next to it;
# Sphinx cannot know which of several it is and would warn, which is not worth failing on.
suppress_warnings = ["ref.python"]

html_theme = "alabaster"
html_title = f"OpenHearts {release} API"
exclude_patterns = ["_build"]
templates_path: list[str] = []
