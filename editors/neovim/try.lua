-- A headless Neovim session with hlolint, as a user has it: the
-- configuration file HLOLINT_TRY_CONFIG (editors/neovim/init.lua or
-- minimal-0.11.lua) on the HLO file of editors/try-editors.sh, driven through
-- the commands a user runs (vim.lsp.buf.*). Prints what the editor shows;
-- exits non-zero when an answer is not the expected one.
--
--   nvim --headless -i NONE -u editors/neovim/try.lua FILE
--
-- HLOLINT_TRY_WITHOUT_LSP_CONFIG=1 hides vim.lsp.config, so that the
-- plugin takes the vim.lsp.start path of Neovim 0.8 to 0.10.
-- HLOLINT_TRY_CONFIG_SAVES=1 also tries saving a .hlolint.json (the plugin
-- tells the server; the minimal configuration does not).
-- HLOLINT_TRY_HLO_NAMES and HLOLINT_TRY_OTHER_NAMES: file names, one a line,
-- that must and must not get the hlo filetype.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
vim.opt.runtimepath:prepend(here)
if vim.env.HLOLINT_TRY_WITHOUT_LSP_CONFIG == '1' then
  vim.lsp.config = nil
  vim.lsp.enable = nil
end
dofile(vim.env.HLOLINT_TRY_CONFIG)

local TIMEOUT_MS = 15000
local failures = 0

local function say(format, ...)
  io.stdout:write(string.format(format, ...) .. '\n')
end

local function check(condition, what)
  if not condition then
    say('FAILED: %s', what)
    failures = failures + 1
  end
  return condition
end

local function finish()
  say(failures == 0 and 'neovim: ok' or ('neovim: %d failed'):format(failures))
  vim.cmd(failures == 0 and 'qall!' or 'cquit! 1')
end

local function clients(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf))
end

-- The 0-based line and column of `token` on the first line matching `line_pattern`.
local function locate(buf, line_pattern, token)
  for number, text in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if text:match(line_pattern) then
      return number - 1, text:find(token, 1, true) - 1
    end
  end
  error('no line matches ' .. line_pattern)
end

local function put_cursor(win, buf, line_pattern, token)
  local line, column = locate(buf, line_pattern, token)
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_win_set_cursor(win, { line + 1, column })
  return line, column
end

local function line_text(buf, line)
  return vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
end

local function floating_windows()
  local found = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      table.insert(found, win)
    end
  end
  return found
end

local function show_diagnostics(buf)
  local shown = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = (d.user_data or {}).lsp or {}
    local code = d.code or lsp.code
    local href = lsp.codeDescription and lsp.codeDescription.href
    local text = ('%d:%d: %s: %s [%s] (source %s, %s)'):format(d.lnum + 1, d.col + 1,
      vim.diagnostic.severity[d.severity], d.message, code, d.source, href)
    say('  %s', text)
    table.insert(shown, { line = d.lnum, col = d.col, severity = d.severity, code = code, href = href })
  end
  return shown
end

local function try_diagnostics(buf)
  if not check(vim.wait(TIMEOUT_MS, function() return #clients(buf) > 0 end, 20),
      'a language server client attached to the buffer') then
    return false
  end
  local plugin = package.loaded.hlolint
  for _, client in ipairs(clients(buf)) do
    say('client %s: %s (started through %s)', client.name, table.concat(client.config.cmd, ' '),
      plugin and plugin.client_api or 'the configuration file')
  end
  -- The finding, as a warning: the settings' severityOverrides took effect.
  local arrived = vim.wait(TIMEOUT_MS, function()
    local d = vim.diagnostic.get(buf)
    return #d > 0 and d[1].severity == vim.diagnostic.severity.WARN
  end, 20)
  say('diagnostics:')
  local shown = show_diagnostics(buf)
  local sum_line = locate(buf, '^%s*sum =', 'sum')
  check(arrived and #shown == 1 and shown[1].line == sum_line and shown[1].col == 2
    and shown[1].code == 'verify-shape', 'one verify-shape warning on sum')
  check(shown[1] and shown[1].href == 'file:///opt/hlolint/docs/rules/verify-shape.md',
    'the init_options ruleDocsUrl gave the link to the rule')
  return arrived
end

-- New settings while the server runs: the finding becomes a note (an
-- INFO), and the configured settings make it a warning again.
local function severity_after_settings(buf, settings, severity)
  for _, client in ipairs(vim.lsp.get_clients and vim.lsp.get_clients({ name = 'hlolint' })
      or vim.tbl_values(vim.lsp.buf_get_clients(buf))) do
    if vim.fn.has('nvim-0.11') == 1 then
      client:notify('workspace/didChangeConfiguration', { settings = settings })
    else
      client.notify('workspace/didChangeConfiguration', { settings = settings })
    end
  end
  local changed = vim.wait(TIMEOUT_MS, function()
    local d = vim.diagnostic.get(buf)
    return #d == 1 and d[1].severity == severity
  end, 20)
  say('after workspace/didChangeConfiguration %s:', vim.inspect(settings, { newline = ' ', indent = '' }))
  show_diagnostics(buf)
  return changed
end

local function try_settings_change(buf)
  check(severity_after_settings(buf, { hlolint = { severityOverrides = { ['verify-shape'] = 'note' } } },
    vim.diagnostic.severity.INFO), 'the finding became a note')
  local configured = clients(buf)[1].config.settings
  check(severity_after_settings(buf, configured, vim.diagnostic.severity.WARN),
    'the finding is a warning again')
end

-- A .hlolint.json saved beside the dump: the finding goes, and comes back
-- when the file allows it again.
local function try_config_file(win, buf)
  if vim.env.HLOLINT_TRY_CONFIG_SAVES ~= '1' then
    say('saving .hlolint.json: not tried (this configuration does not tell the server)')
    return
  end
  local config = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':p:h') .. '/.hlolint.json'
  local function save(text, count)
    vim.cmd('silent split ' .. vim.fn.fnameescape(config))
    vim.api.nvim_buf_set_lines(0, 0, -1, false, { text })
    vim.cmd('silent write | close')
    vim.api.nvim_set_current_win(win)
    local arrived = vim.wait(TIMEOUT_MS, function()
      local d = vim.diagnostic.get(buf)
      return #d == count and (count == 0 or d[1].severity == vim.diagnostic.severity.WARN)
    end, 20)
    say('after saving .hlolint.json %s:', text)
    show_diagnostics(buf)
    return arrived
  end
  check(save('{"ignore": ["verify-shape"]}', 0), 'the configuration file took the finding away')
  check(save('{}', 1), 'the finding came back, still a warning through the settings')
  os.remove(config)
end

local function try_hover(win, buf)
  put_cursor(win, buf, '^%s*sum =', 'sum')
  vim.lsp.buf.hover()
  local opened = vim.wait(TIMEOUT_MS, function() return #floating_windows() > 0 end, 20)
  say('hover on sum:')
  local text = ''
  for _, float in ipairs(floating_windows()) do
    local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false)
    for _, line in ipairs(lines) do
      say('  | %s', line)
    end
    text = text .. table.concat(lines, '\n')
    vim.api.nvim_win_close(float, true)
  end
  check(opened and text:find('%sum', 1, true) and text:find('f32[5]{0}', 1, true)
    and text:find('verify-shape', 1, true), 'the hover shows the shape and the finding')
end

local function try_definition(win, buf, line_pattern, token, want_pattern, want_column)
  local line, column = put_cursor(win, buf, line_pattern, token)
  vim.lsp.buf.definition()
  local moved = vim.wait(TIMEOUT_MS, function()
    return vim.api.nvim_win_get_cursor(win)[1] ~= line + 1
  end, 20)
  local at = vim.api.nvim_win_get_cursor(win)
  say('definition of %s at %d:%d -> %d:%d: %s', token, line + 1, column + 1, at[1], at[2] + 1,
    line_text(buf, at[1] - 1))
  local want_line = locate(buf, want_pattern, token)
  check(moved and at[1] == want_line + 1 and at[2] == want_column,
    'the definition of ' .. token)
end

local function wait_for_list(get)
  vim.wait(TIMEOUT_MS, function() return #get() > 0 end, 20)
  return get()
end

local function show_list(items)
  local lines = {}
  for _, item in ipairs(items) do
    say('  %d:%d: %s', item.lnum, item.col, item.text)
    table.insert(lines, item.lnum)
  end
  return lines
end

local function try_references(win, buf)
  put_cursor(win, buf, '^%s*p1 =', 'p1')
  vim.lsp.buf.references()
  say('references of p1 (quickfix list):')
  local lines = show_list(wait_for_list(function() return vim.fn.getqflist() end))
  vim.cmd('cclose')
  local want = {}
  for _, pattern in ipairs({ '^%s*p1 =', '^%s*sum =', '^%s*total =', '^%s*ROOT out =' }) do
    table.insert(want, locate(buf, pattern, 'p1') + 1)
  end
  check(vim.deep_equal(lines, want), 'p1 and its three users')
  vim.fn.setqflist({}, 'r')
end

-- Neovim 0.7 puts document symbols in the quickfix list, later versions in
-- the window's location list.
local function try_symbols(win, buf)
  vim.api.nvim_set_current_win(win)
  vim.lsp.buf.document_symbol()
  say('document symbols:')
  local items = wait_for_list(function()
    local items = vim.fn.getloclist(win)
    return #items > 0 and items or vim.fn.getqflist()
  end)
  show_list(items)
  vim.cmd('lclose | cclose')
  vim.fn.setqflist({}, 'r')
  local names = {}
  for _, item in ipairs(items) do
    table.insert(names, (item.text:gsub('^%[%a+%] ', '')))
  end
  check(#items == 12 and names[1] == 'nav' and names[2] == 'add_f32' and names[6] == 'main',
    'the module, its two computations and their instructions')
end

local function try_workspace_symbols(win, buf)
  vim.api.nvim_set_current_win(win)
  vim.lsp.buf.workspace_symbol('ADD')
  say('workspace symbols matching ADD (quickfix list):')
  local items = wait_for_list(function() return vim.fn.getqflist() end)
  local lines = show_list(items)
  vim.cmd('cclose')
  vim.fn.setqflist({}, 'r')
  check(#items == 1 and lines[1] == locate(buf, '^add_f32 {', 'add_f32') + 1,
    'the computation add_f32')
end

local function try_code_action(win, buf)
  local lines_before = vim.api.nvim_buf_line_count(buf)
  local line = put_cursor(win, buf, '^%s*sum =', 'sum')
  local offered = {}
  vim.ui.select = function(items, opts, on_choice)
    for _, item in ipairs(items) do
      table.insert(offered, opts.format_item and opts.format_item(item) or tostring(item))
    end
    on_choice(items[1], 1)
  end
  vim.lsp.buf.code_action()
  local applied = vim.wait(TIMEOUT_MS, function()
    return vim.api.nvim_buf_line_count(buf) == lines_before + 1
  end, 20)
  say('code actions offered: %s', table.concat(offered, ' | '))
  say('line %d after applying the first: %s', line + 1, line_text(buf, line))
  check(applied and offered[1] == 'Suppress verify-shape on this line'
    and line_text(buf, line):match('^%s*// hlolint: ignore%[verify%-shape%]'),
    'the suppression comment was inserted')
  local cleared = vim.wait(TIMEOUT_MS, function() return #vim.diagnostic.get(buf) == 0 end, 20)
  say('diagnostics after the edit: %d', #vim.diagnostic.get(buf))
  check(cleared, 'the suppressed finding went away after the edit')
end

-- Which names are HLO: XLA dump names are, XLA's reports on them are not.
-- Neovim 0.7 has no vim.filetype.match for a name: detect in a new buffer
-- of that name, without the FileType autocommands that would start a server.
local function filetype_of(name)
  local path = '/hlolint-try-names/' .. name
  if vim.fn.has('nvim-0.8') == 1 then
    return vim.filetype.match({ filename = path }) or ''
  end
  vim.cmd('silent noautocmd enew')
  vim.cmd('silent file ' .. vim.fn.fnameescape(path))
  local eventignore = vim.o.eventignore
  vim.o.eventignore = 'FileType'
  vim.cmd('silent doautocmd BufNewFile ' .. vim.fn.fnameescape(path))
  vim.o.eventignore = eventignore
  local filetype = vim.bo.filetype
  vim.cmd('silent bwipeout!')
  return filetype
end

local function try_filetypes()
  local wrong, hlo, other = {}, 0, 0
  for name in (vim.env.HLOLINT_TRY_HLO_NAMES or ''):gmatch('[^\n]+') do
    hlo = hlo + 1
    if filetype_of(name) ~= 'hlo' then table.insert(wrong, 'not hlo: ' .. name) end
  end
  for name in (vim.env.HLOLINT_TRY_OTHER_NAMES or ''):gmatch('[^\n]+') do
    other = other + 1
    if filetype_of(name) == 'hlo' then table.insert(wrong, 'hlo: ' .. name) end
  end
  say('filetype detection: %d HLO names, %d other names: %s', hlo, other,
    #wrong == 0 and 'as expected' or table.concat(wrong, '; '))
  check(#wrong == 0 and hlo > 0 and other > 0, 'filetype detection')
end

local function try_all()
  local win, buf = vim.api.nvim_get_current_win(), vim.api.nvim_get_current_buf()
  say('%s', vim.split(vim.fn.execute('version'), '\n', { trimempty = true })[1])
  say('file %s: filetype %s', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':t'),
    vim.bo[buf].filetype)
  check(vim.bo[buf].filetype == 'hlo', 'the dump is an hlo buffer')
  if not try_diagnostics(buf) then
    return  -- no server, or it does not answer: the rest would only wait
  end
  try_settings_change(buf)
  try_config_file(win, buf)
  try_hover(win, buf)
  try_definition(win, buf, '^%s*sum =', 'p1', '^%s*p1 =', 2)
  try_definition(win, buf, '^%s*total =', 'add_f32', '^add_f32 {', 0)
  try_references(win, buf)
  try_symbols(win, buf)
  try_workspace_symbols(win, buf)
  try_code_action(win, buf)
  vim.api.nvim_set_current_win(win)
  try_filetypes()
end

-- Nested: the commands the session runs fire their autocommands (BufWritePost
-- for a .hlolint.json) as they do when a user types them.
vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  nested = true,
  callback = function()
    local ok, error = pcall(try_all)
    check(ok, tostring(error))
    finish()
  end,
})
