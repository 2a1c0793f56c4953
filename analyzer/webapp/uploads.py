"""The app's file uploaders: a saved game, read as JSON, up to the size the package reads."""

from __future__ import annotations

from typing import Any

import streamlit as st

from analyzer.limits import MAX_JSON_BYTES

#: The largest file an uploader takes, in the megabytes Streamlit counts: a saved game's limit, so that the uploader
#: says it ("Limit 32MB per file") rather than Streamlit's 200 MB, past which the package refuses the file anyway.
UPLOAD_MB = MAX_JSON_BYTES >> 20


def game_uploader(label: str, key: str, **kw: Any) -> Any:
    """A file uploader for a saved game (a ``.json`` file of at most :data:`UPLOAD_MB`): the file, or None."""
    return st.file_uploader(label, type="json", key=key, max_upload_size=UPLOAD_MB, **kw)
