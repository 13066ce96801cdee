-- hlolint's language server for HLO files (docs/editors.md). Needs
-- lua/hlolint.lua of this folder on 'runtimepath': copy it to
-- ~/.config/nvim/lua/, or add this folder of a checkout to 'runtimepath'.
require('hlolint').setup({
  cmd = { 'hlolint', 'lsp' },
  init_options = { ruleDocsUrl = 'file:///opt/hlolint/docs/rules/{rule}.md' },
  settings = {
    hlolint = {
      severityOverrides = { ['verify-shape'] = 'warning' },
    },
  },
})
