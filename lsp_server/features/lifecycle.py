"""Workspace lifecycle: open or build each folder's index on ``initialize`` and on
``workspace/didChangeWorkspaceFolders``."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import from_fs_path

if TYPE_CHECKING:
    from lsp_server.server import RippleServer

__all__ = ["FEATURES"]


def initialize(ls: RippleServer, params: types.InitializeParams) -> None:
    """Remember the event loop and whether the client shows progress; open every folder's index."""
    ls.loop = asyncio.get_event_loop()
    window = params.capabilities.window
    ls.progress_supported = bool(window and window.work_done_progress)
    folders = [f.uri for f in params.workspace_folders or []]
    if not folders and (params.root_uri or params.root_path):
        folders = [params.root_uri or from_fs_path(params.root_path or "") or ""]
    for uri in folders:
        ls.add_folder(uri)


def did_change_folders(ls: RippleServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    """Close removed folders' indexes, open (or build) added ones."""
    for removed in params.event.removed:
        ls.remove_folder(removed.uri)
    for added in params.event.added:
        ls.add_folder(added.uri)


FEATURES = [
    (types.INITIALIZE, None, initialize),
    (types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, None, did_change_folders),
]
