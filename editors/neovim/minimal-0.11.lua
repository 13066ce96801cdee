vim.filetype.add({
  extension = { hlo = 'hlo' },
  pattern = {
    ['[%d.]*module_%d%d%d%d+%..*_optimizations%.txt'] = 'hlo',
    ['[%d.]*module_%d%d%d%d+%..*%d%d%d%d%..+%.txt'] = 'hlo',
  },
})
vim.lsp.config('hlolint', {
  cmd = { 'hlolint', 'lsp' },
  filetypes = { 'hlo' },
  root_markers = { '.git' },
  init_options = { ruleDocsUrl = 'file:///opt/hlolint/docs/rules/{rule}.md' },
  settings = {
    hlolint = {
      severityOverrides = { ['verify-shape'] = 'warning' },
    },
  },
})
vim.lsp.enable('hlolint')
