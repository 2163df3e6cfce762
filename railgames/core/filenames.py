"""Names of the files beside saved games, kept apart from the record models so
that tidying a folder at start-up loads nothing heavy (no pydantic).

Temporary files never look like saves: saves are ``*.json``, these are not.
"""

TEMP_PREFIX = ".railgames-write-"
TEMP_SUFFIX = ".partial"
