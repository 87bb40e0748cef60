-- Neovim 0.7 as a second, independent LSP client for the language server (test/e2e/neovim.test.ts).
--   nvim --headless -n -i NONE -u init.lua <file>
-- Environment: NK_SERVER (dist/server.js), NK_RULE (the rule whose preferred quick fix to apply), NK_RESULT (the
-- JSON file this script writes; the test reads it). Every wait is vim.wait on a condition: diagnostics arriving,
-- the fixed rule's diagnostic going away, the server exiting.
local server = assert(os.getenv('NK_SERVER'), 'NK_SERVER is not set')
local rule = assert(os.getenv('NK_RULE'), 'NK_RULE is not set')
local result_file = assert(os.getenv('NK_RESULT'), 'NK_RESULT is not set')
local TIMEOUT_MS = 20000

local result = { steps = {} }
-- The LSP diagnostics as the server published them (UTF-16 ranges, data): the codeAction request sends them back.
local published = {}

local default_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
  published[params.uri] = params.diagnostics
  return default_publish(err, params, ctx, config)
end

local client_id
local function start_and_attach(bufnr)
  client_id = client_id or vim.lsp.start_client({
    name = 'nginx-keepalive',
    cmd = { 'node', server, '--stdio' },
    root_dir = vim.fn.getcwd(),
    settings = { nginxKeepalive = vim.empty_dict() },
  })
  vim.lsp.buf_attach_client(bufnr, client_id)
end

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'nginx',
  callback = function(args) start_and_attach(args.buf) end,
})

local function step(name) table.insert(result.steps, name) end

local function simplify(diagnostics)
  return vim.tbl_map(function(d)
    return { code = d.code, source = d.source, message = d.message, lnum = d.lnum, col = d.col, severity = d.severity }
  end, diagnostics)
end

local function has_rule(bufnr, id)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == id then return true end
  end
  return false
end

local function wait_for(what, condition)
  if not vim.wait(TIMEOUT_MS, condition, 10) then error('timed out waiting for ' .. what) end
end

local function preferred_fix(client, bufnr, diagnostic)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = diagnostic.range,
    context = { diagnostics = { diagnostic }, only = { 'quickfix' } },
  }
  local response = client.request_sync('textDocument/codeAction', params, TIMEOUT_MS, bufnr)
  if not response or response.err then error('codeAction failed: ' .. vim.inspect(response)) end
  result.actions = vim.tbl_map(function(a) return { title = a.title, kind = a.kind, isPreferred = a.isPreferred } end,
    response.result or {})
  for _, action in ipairs(response.result or {}) do
    if action.isPreferred and action.edit then return action end
  end
  error('no preferred quick fix with an edit among ' .. vim.inspect(result.actions))
end

local function run()
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  result.filetype = vim.bo[bufnr].filetype
  wait_for('diagnostics', function() return #vim.diagnostic.get(bufnr) > 0 end)
  step('diagnostics')
  result.before = simplify(vim.diagnostic.get(bufnr))

  local target
  wait_for('the published ' .. rule .. ' diagnostic', function()
    for _, d in ipairs(published[uri] or {}) do
      if d.code == rule then target = d return true end
    end
    return false
  end)
  local client = vim.lsp.get_client_by_id(client_id)
  local action = preferred_fix(client, bufnr, target)
  result.applied = action.title
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  step('applied')
  wait_for(rule .. ' to clear', function() return not has_rule(bufnr, rule) end)
  step('cleared')
  result.after = simplify(vim.diagnostic.get(bufnr))
  vim.cmd('write')
  step('written')

  vim.lsp.stop_client(client_id)
  wait_for('the server to exit', function() return vim.lsp.get_client_by_id(client_id) == nil end)
  step('stopped')
end

vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    local ok, err = xpcall(run, debug.traceback)
    if not ok then result.error = err end
    vim.fn.writefile({ vim.fn.json_encode(result) }, result_file)
    vim.cmd(ok and 'qa!' or 'cquit 1')
  end,
})
