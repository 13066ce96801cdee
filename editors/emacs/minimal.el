;; hlolint through eglot, without editors/emacs/hlolint.el (docs/editors.md).
(define-derived-mode hlo-mode prog-mode "HLO"
  "Major mode for XLA HLO text."
  (setq-local comment-start "// "))
(add-to-list 'auto-mode-alist '("\\.hlo\\'" . hlo-mode))
(add-to-list 'auto-mode-alist
             '("\\(?:\\`\\|/\\)[0-9.]*module_[0-9]\\{4,\\}\\.\\(?:.*_optimizations\\|.*[0-9]\\{4\\}\\..+\\)\\.txt\\'"
               . hlo-mode))
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '(hlo-mode . ("hlolint" "lsp" :initializationOptions
                             (:ruleDocsUrl "file:///opt/hlolint/docs/rules/{rule}.md")))))
(setq-default eglot-workspace-configuration
              '(:hlolint (:severityOverrides (:verify-shape "warning"))))
(add-hook 'hlo-mode-hook #'eglot-ensure)
