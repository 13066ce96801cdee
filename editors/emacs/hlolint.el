;;; hlolint.el --- XLA HLO text, and hlolint's language server through eglot  -*- lexical-binding: t -*-

;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages

;;; Commentary:

;; `hlo-mode' for HLO text and XLA's HLO dumps (*.hlo, module_*.txt dump
;; names), and the eglot entry that runs `hlolint lsp' for it.  In init.el:
;;
;;   (add-to-list 'load-path "/path/to/hlolint/editors/emacs")
;;   (require 'hlolint)
;;   (add-hook 'hlo-mode-hook #'eglot-ensure)
;;
;; Eglot is built into Emacs 29 and later; on Emacs 27 and 28 install it
;; from GNU ELPA (M-x package-install RET eglot) or your distribution
;; (Debian: elpa-eglot).  docs/editors.md has the settings.

;;; Code:

(defgroup hlolint nil
  "XLA HLO text and the hlolint language server."
  :group 'languages
  :prefix "hlolint-")

(defcustom hlolint-program "hlolint"
  "The hlolint executable: a name looked up on `exec-path', or a path."
  :type 'string)

(defcustom hlolint-lsp-arguments nil
  "More arguments for `hlolint lsp', as on its command line (`hlolint lsp --help')."
  :type '(repeat string))

(defcustom hlolint-initialization-options nil
  "Settings sent as the server's initializationOptions, a plist.
For example (:ruleDocsUrl \"file:///opt/hlolint/docs/rules/{rule}.md\").
Settings that may change while the server runs belong in
`eglot-workspace-configuration' instead."
  :type '(plist :key-type symbol))

(defvar hlo-mode-syntax-table
  (let ((table (make-syntax-table)))
    ;; // line comments and /* */ block comments (tuple indices: /*index=5*/).
    (modify-syntax-entry ?/ ". 124b" table)
    (modify-syntax-entry ?* ". 23" table)
    (modify-syntax-entry ?\n "> b" table)
    ;; Names like fusion.1, copy-start, add_f32 are one symbol.
    (modify-syntax-entry ?_ "_" table)
    (modify-syntax-entry ?. "_" table)
    (modify-syntax-entry ?- "_" table)
    (modify-syntax-entry ?% "'" table)
    table)
  "Syntax table of `hlo-mode'.")

(defconst hlo-element-types
  '("pred" "token" "opaque" "s2" "s4" "s8" "s16" "s32" "s64" "u2" "u4" "u8" "u16" "u32" "u64"
    "f16" "f32" "f64" "bf16" "c64" "c128" "f4e2m1fn" "f8e3m4" "f8e4m3" "f8e4m3fn" "f8e4m3fnuz"
    "f8e4m3b11fnuz" "f8e5m2" "f8e5m2fnuz" "f8e8m0fnu")
  "HLO element types, highlighted as types.")

(defconst hlo-name-regexp "%?\\([A-Za-z_][A-Za-z0-9_.-]*\\)"
  "An HLO name, its optional % left out of the group.")

(defconst hlo-font-lock-keywords
  `(("\\_<\\(HloModule\\|ENTRY\\|ROOT\\)\\_>" . font-lock-keyword-face)
    ("\\_<HloModule[ \t]+\\([^ \t\n,]+\\)" 1 font-lock-constant-face)
    ;; A computation starts at the beginning of a line: [ENTRY] name [(...)] {
    (,(concat "^\\(?:ENTRY[ \t]+\\)?" hlo-name-regexp "[ \t]*[({]")
     1 font-lock-function-name-face)
    ;; An instruction: [ROOT] name = shape opcode(operands), attributes
    (,(concat "^[ \t]+\\(?:ROOT[ \t]+\\)?" hlo-name-regexp "[ \t]*=")
     1 font-lock-variable-name-face)
    (,(concat "\\_<" (regexp-opt hlo-element-types t) "\\_>") . font-lock-type-face)
    ("\\_<\\([a-z][a-z0-9-]*\\)(" 1 font-lock-builtin-face)
    ("\\_<\\([a-z_][a-z0-9_]*\\)=" 1 font-lock-preprocessor-face))
  "Highlighting of `hlo-mode'.")

;;;###autoload
(define-derived-mode hlo-mode prog-mode "HLO"
  "Major mode for XLA HLO text."
  :syntax-table hlo-mode-syntax-table
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "\\(?://+\\|/\\*+\\)\\s *")
  (setq-local font-lock-defaults '(hlo-font-lock-keywords)))

;; The names XLA gives HLO text dumps (docs/dump-directories.md): a whole
;; module before or after optimizations, or a dump between or within
;; passes, which has a step counter of four or more digits.  Its reports on
;; a dump (buffer assignment, memory usage, thunk sequences) match neither.
;;;###autoload
(defconst hlo-dump-name-regexp
  (concat "\\(?:\\`\\|/\\)[0-9.]*module_[0-9]\\{4,\\}\\."
          "\\(?:.*_optimizations\\|.*[0-9]\\{4\\}\\..+\\)\\.txt\\'")
  "File names of XLA's HLO text dumps.")

;;;###autoload
(progn
  (add-to-list 'auto-mode-alist '("\\.hlo\\'" . hlo-mode))
  (add-to-list 'auto-mode-alist (cons hlo-dump-name-regexp 'hlo-mode)))

;;;###autoload
(defun hlolint-eglot-contact (&rest _)
  "How eglot starts the server for `hlo-mode': `hlolint-program' lsp."
  `(,hlolint-program "lsp" ,@hlolint-lsp-arguments
    ,@(when hlolint-initialization-options
        `(:initializationOptions ,hlolint-initialization-options))))

;;;###autoload
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(hlo-mode . hlolint-eglot-contact)))

(defvar eglot--servers-by-project)
(declare-function eglot--major-modes "eglot")
(declare-function jsonrpc-notify "jsonrpc")

(defun hlolint--file-uri (file)
  (if (fboundp 'eglot-path-to-uri)
      (eglot-path-to-uri file)
    (with-no-warnings (eglot--path-to-uri file))))

(defun hlolint-tell-servers-config-saved ()
  "Tell the hlolint servers that this buffer, a .hlolint.json, changed.
The server reads the .hlolint.json files again when it hears that a
watched file changed; eglot watches no files for it."
  (when (and (featurep 'eglot) buffer-file-name
             (equal (file-name-nondirectory buffer-file-name) ".hlolint.json"))
    (let ((changes `[(:uri ,(hlolint--file-uri buffer-file-name) :type 2)]))
      (maphash (lambda (_project servers)
                 (dolist (server servers)
                   (when (memq 'hlo-mode (eglot--major-modes server))
                     (jsonrpc-notify server :workspace/didChangeWatchedFiles
                                     `(:changes ,changes)))))
               eglot--servers-by-project))))

;;;###autoload
(add-hook 'after-save-hook #'hlolint-tell-servers-config-saved)

(provide 'hlolint)
;;; hlolint.el ends here
