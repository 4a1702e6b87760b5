-- Headless Neovim as the editor of a read-only `ripple serve` (driven by tests/lsp/test_neovim.py): collects
-- what the editor is shown (window/showMessage) and the ripple/status notifications about freshness.
-- Env: RIPPLE_PY (python), RIPPLE_WS (the folder), RIPPLE_OUT (what was shown, JSON).
local py, ws, out = os.getenv("RIPPLE_PY"), os.getenv("RIPPLE_WS"), os.getenv("RIPPLE_OUT")
local shown, statuses = {}, {}
local client_id = vim.lsp.start_client({
  name = "ripple",
  cmd = { py, "-m", "lsp_server.cli", "serve" },
  root_dir = ws,
  workspace_folders = { { uri = vim.uri_from_fname(ws), name = "petclinic" } },
  handlers = {
    ["window/showMessage"] = function(_, result) table.insert(shown, { type = result.type, message = result.message }) end,
    ["ripple/status"] = function(_, result) table.insert(statuses, result) end,
  },
})
local file = ws .. "/src/main/java/org/example/OwnerController.java"
vim.cmd("edit " .. file)
vim.lsp.buf_attach_client(vim.api.nvim_get_current_buf(), client_id)
vim.wait(20000, function()
  for _, m in ipairs(shown) do if m.message:find("behind HEAD", 1, true) then return true end end
  return false
end, 50)
local f = io.open(out, "w")
f:write(vim.fn.json_encode({ shown = shown, statuses = statuses }))
f:close()
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
