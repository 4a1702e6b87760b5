-- Headless Neovim as an LSP client of `ripple serve` (driven by tests/lsp/test_neovim.py).
-- Env: RIPPLE_PY (python), RIPPLE_WS (workspace root), RIPPLE_OUT (answers, JSON), RIPPLE_COMMANDS (the
-- :RippleSearch / :RippleBlastRadius snippet of docs/editors.md, as a file).
local py, ws, out = os.getenv("RIPPLE_PY"), os.getenv("RIPPLE_WS"), os.getenv("RIPPLE_OUT")
local function folder(name) return { uri = vim.uri_from_fname(ws .. "/" .. name), name = name } end
local client_id = vim.lsp.start_client({
  name = "ripple",
  cmd = { py, "-m", "lsp_server.cli", "serve" },
  root_dir = ws .. "/petclinic",
  workspace_folders = { folder("petclinic"), folder("client") },
})
local file = ws .. "/petclinic/src/main/java/org/example/OwnerController.java"
vim.cmd("edit " .. file)
local bufnr = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(bufnr, client_id)
local client
vim.wait(10000, function() client = vim.lsp.get_client_by_id(client_id); return client and client.initialized end, 50)
local result = {}
vim.wait(20000, function()
  local r = client.request_sync("ripple/indexStatus", {}, 5000, bufnr)
  if not r or not r.result then return false end
  for _, f in ipairs(r.result.folders) do if f.state ~= "ready" then return false end end
  return true
end, 100)
local pos = { textDocument = { uri = vim.uri_from_fname(file) }, position = { line = 10, character = 36 } }
local prep = client.request_sync("textDocument/prepareCallHierarchy", pos, 5000, bufnr)
result.prepare = prep and prep.result
if result.prepare and result.prepare[1] then
  local inc = client.request_sync("callHierarchy/incomingCalls", { item = result.prepare[1] }, 5000, bufnr)
  result.incoming = inc and inc.result
end
local refs = client.request_sync("textDocument/references", {
  textDocument = pos.textDocument, position = { line = 9, character = 18 }, context = { includeDeclaration = true },
}, 5000, bufnr)
result.references = refs and refs.result
-- the documented commands, as written in docs/editors.md
dofile(os.getenv("RIPPLE_COMMANDS"))
vim.cmd("RippleSearch fetch owner")
vim.wait(10000, function() return #vim.fn.getqflist() > 0 end, 50)
result.search = {}
for _, item in ipairs(vim.fn.getqflist()) do
  table.insert(result.search, { file = vim.api.nvim_buf_get_name(item.bufnr), lnum = item.lnum, text = item.text })
end
vim.cmd("cclose")
vim.api.nvim_set_current_buf(bufnr)
vim.api.nvim_win_set_cursor(0, { 11, 36 })  -- findById in `repository.findById(id)`
vim.cmd("RippleBlastRadius 3")
vim.wait(10000, function() return vim.bo.filetype == "markdown" end, 50)
result.blast = vim.api.nvim_buf_get_lines(0, 0, -1, false)
local f = io.open(out, "w")
f:write(vim.fn.json_encode(result))
f:close()
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
