-- hlolint for Neovim: the `hlo` filetype for HLO text and XLA's HLO dumps,
-- and hlolint's language server (`hlolint lsp`) on the built-in LSP client.
--
--   require('hlolint').setup({
--     cmd = { 'hlolint', 'lsp' },  -- the default; a path works too
--     init_options = { ... },      -- sent as initializationOptions
--     settings = { hlolint = { ... } },  -- sent by workspace/didChangeConfiguration
--   })
--
-- The settings keys are listed in docs/editors.md. Any other field of a
-- Neovim LSP client configuration (on_attach, capabilities, handlers, ...)
-- is passed on as it is. Works on Neovim 0.7 and later: it uses the newest
-- client API the running Neovim has.
local M = {}

M.defaults = {
  cmd = { 'hlolint', 'lsp' },
  -- Where one server's workspace ends. The server finds the .hlolint.json
  -- of each file itself, so this only decides which files share a server
  -- (and so which computations workspace/symbol searches).
  root_markers = { '.git' },
}

-- The names XLA gives HLO text dumps (docs/dump-directories.md): a whole
-- module before or after optimizations, or a dump between or within passes,
-- which has a step counter of four or more digits. Its reports on a dump
-- (buffer assignment, memory usage, thunk sequences) match neither.
M.dump_name_patterns = {
  '[%d.]*module_%d%d%d%d+%..*_optimizations%.txt',
  '[%d.]*module_%d%d%d%d+%..*%d%d%d%d%..+%.txt',
}

-- The same names as autocommand patterns, for Neovim 0.7, where
-- vim.filetype.add only works with g:do_filetype_lua set before startup.
M.dump_name_globs = {
  '*module_[0-9][0-9][0-9][0-9]*_optimizations.txt',
  '*module_[0-9][0-9][0-9][0-9]*[0-9][0-9][0-9][0-9].?*.txt',
}

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

local function add_filetype()
  if has('0.8') then
    local patterns = {}
    for _, pattern in ipairs(M.dump_name_patterns) do
      patterns[pattern] = 'hlo'
    end
    vim.filetype.add({ extension = { hlo = 'hlo' }, pattern = patterns })
  else
    local group = vim.api.nvim_create_augroup('hlolint_filetype', { clear = true })
    -- `set filetype`, not `setfiletype`: *.txt was already made `text`.
    vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
      group = group,
      pattern = vim.list_extend({ '*.hlo' }, vim.deepcopy(M.dump_name_globs)),
      command = 'set filetype=hlo',
    })
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = vim.api.nvim_create_augroup('hlolint_comments', { clear = true }),
    pattern = 'hlo',
    callback = function()
      vim.bo.commentstring = '// %s'
      vim.bo.comments = 's1:/*,mb:*,ex:*/,://'
    end,
  })
end

-- The vim.lsp client configuration: the options less the plugin's own.
local function client_config(opts)
  local config = vim.tbl_extend('force', { name = 'hlolint' }, opts)
  config.root_markers = nil
  return config
end

-- Neovim 0.11 and later: vim.lsp.config and vim.lsp.enable.
local function enable_with_lsp_config(opts)
  local config = client_config(opts)
  config.name = nil
  config.filetypes = { 'hlo' }
  config.root_markers = opts.root_markers
  vim.lsp.config('hlolint', config)
  vim.lsp.enable('hlolint')
end

-- Neovim 0.8 to 0.10: vim.lsp.start when a buffer becomes `hlo`; it reuses
-- the client of the same name and root.
local function enable_with_lsp_start(opts)
  vim.api.nvim_create_autocmd('FileType', {
    group = vim.api.nvim_create_augroup('hlolint_lsp', { clear = true }),
    pattern = 'hlo',
    callback = function(args)
      local config = client_config(opts)
      local marker = vim.fs.find(opts.root_markers, {
        upward = true,
        path = vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)),
      })[1]
      config.root_dir = marker and vim.fs.dirname(marker) or vim.fn.getcwd()
      vim.lsp.start(config, { bufnr = args.buf })
    end,
  })
end

-- Neovim 0.7 sends `settings` only when the server asks for them
-- (workspace/configuration), which hlolint does not: send them once the
-- server is up, as later versions do.
local function send_settings_on_init(config)
  local on_init = config.on_init
  config.on_init = function(client, result)
    if next(config.settings or {}) then
      client.notify('workspace/didChangeConfiguration', { settings = config.settings })
    end
    if on_init then
      on_init(client, result)
    end
  end
end

-- Neovim 0.7: one client started by hand, which every `hlo` buffer joins.
local function enable_with_start_client(opts)
  local client_id
  vim.api.nvim_create_autocmd('FileType', {
    group = vim.api.nvim_create_augroup('hlolint_lsp', { clear = true }),
    pattern = 'hlo',
    callback = function(args)
      if not (client_id and vim.lsp.get_client_by_id(client_id)) then
        local config = client_config(opts)
        config.root_dir = vim.fn.getcwd()
        send_settings_on_init(config)
        client_id = vim.lsp.start_client(config)
      end
      if client_id then
        vim.lsp.buf_attach_client(args.buf, client_id)
      end
    end,
  })
end

local function hlolint_clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ name = 'hlolint' })
  end
  return vim.tbl_filter(function(client)
    return client.name == 'hlolint'
  end, vim.lsp.get_active_clients())
end

local function notify(client, method, params)
  if has('0.11') then
    client:notify(method, params)
  else
    client.notify(method, params)
  end
end

-- The server reads the .hlolint.json files again when it hears that a
-- watched file changed. Neovim watches no files for it: saving one tells it.
local function tell_servers_on_config_save()
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = vim.api.nvim_create_augroup('hlolint_config_files', { clear = true }),
    pattern = '.hlolint.json',
    callback = function(args)
      local uri = vim.uri_from_fname(vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':p'))
      for _, client in ipairs(hlolint_clients()) do
        notify(client, 'workspace/didChangeWatchedFiles', { changes = { { uri = uri, type = 2 } } })
      end
    end,
  })
end

-- Which client API setup() used (for :lua print(require('hlolint').client_api)).
M.client_api = nil

function M.setup(opts)
  opts = vim.tbl_extend('force', M.defaults, opts or {})
  add_filetype()
  tell_servers_on_config_save()
  if vim.lsp.config and vim.lsp.enable then
    M.client_api = 'vim.lsp.config'
    enable_with_lsp_config(opts)
  elseif vim.lsp.start then
    M.client_api = 'vim.lsp.start'
    enable_with_lsp_start(opts)
  else
    M.client_api = 'vim.lsp.start_client'
    enable_with_start_client(opts)
  end
end

return M
