;; hlolint's language server for HLO files, through eglot (docs/editors.md).
(add-to-list 'load-path "~/src/hlolint/editors/emacs")
(require 'hlolint)
(setq hlolint-initialization-options
      '(:ruleDocsUrl "file:///opt/hlolint/docs/rules/{rule}.md"))
(setq-default eglot-workspace-configuration
              '(:hlolint (:severityOverrides (:verify-shape "warning"))))
(add-hook 'hlo-mode-hook #'eglot-ensure)
