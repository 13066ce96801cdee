;;; try.el --- a batch Emacs session with hlolint, as a user has it  -*- lexical-binding: t -*-

;; The configuration file HLOLINT_TRY_CONFIG (editors/emacs/init.el) on the
;; HLO file of editors/try-editors.sh, driven through the commands a user
;; runs (flymake, xref, eldoc, imenu, eglot-code-actions).  Prints what the
;; editor shows; exits non-zero when an answer is not the expected one.
;;
;;   emacs --batch -q --no-site-file -l editors/emacs/try.el FILE
;;
;; (Not -Q: an eglot installed as a Debian package lives in site-lisp.)
;; HLOLINT_TRY_CONFIG_SAVES=1 also tries saving a .hlolint.json (hlolint.el
;; tells the server; minimal.el does not).  HLOLINT_TRY_HLO_NAMES and
;; HLOLINT_TRY_OTHER_NAMES: file names, one a line, that must and must not
;; open in `hlo-mode'.

;;; Code:

(require 'cl-lib)
(require 'lisp-mnt)

(defconst hlolint-try-timeout 15 "Seconds to wait for each answer.")
(defvar hlolint-try-failures 0)

(defun hlolint-try-say (format-string &rest args)
  (princ (concat (apply #'format format-string args) "\n")))

(defun hlolint-try-check (condition what)
  (unless condition
    (hlolint-try-say "FAILED: %s" what)
    (cl-incf hlolint-try-failures))
  condition)

(defun hlolint-try-wait (predicate)
  "Run the event loop until PREDICATE holds; its value, or nil on timeout.
Batch Emacs has no command loop, so this does what the command loop does
for a user who has stopped typing: it runs `post-command-hook' (eglot-ensure
and flymake start from there) and each idle timer once its delay has passed
(eglot sends a buffer's changes from one, flymake checks it from another)."
  (let* ((start (float-time))
         (deadline (+ start hlolint-try-timeout))
         (fired nil)
         value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (run-hooks 'post-command-hook)
      (dolist (timer (copy-sequence timer-idle-list))
        (when (and (not (memq timer fired))
                   (<= (float-time (timer--time timer)) (- (float-time) start)))
          (push timer fired)
          (timer-event-handler timer)))
      (accept-process-output nil 0.02))
    value))

(defun hlolint-try-goto (line-regexp token)
  "Put point on TOKEN in the first line matching LINE-REGEXP; that line's number."
  (goto-char (point-min))
  (re-search-forward line-regexp)
  (beginning-of-line)
  (search-forward token (line-end-position))
  (goto-char (match-beginning 0))
  (line-number-at-pos))

(defun hlolint-try-line-of (line-regexp)
  (save-excursion
    (goto-char (point-min))
    (re-search-forward line-regexp)
    (line-number-at-pos)))

(defun hlolint-try-position (&optional at)
  (save-excursion
    (when at (goto-char at))
    (format "%d:%d" (line-number-at-pos) (1+ (current-column)))))

(defun hlolint-try-library-version (library)
  (let ((file (locate-library (concat library ".el") t)))
    (format "%s %s (%s)" library (or (and file (lm-version file)) "?") file)))

(defun hlolint-try-diagnostics ()
  "Whether the finding arrived (without it, the rest would only wait)."
  (unless (hlolint-try-check (hlolint-try-wait #'eglot-current-server) "eglot started a server")
    (error "No server"))
  (let ((server (eglot-current-server)))
    (hlolint-try-say "server: %s" (mapconcat #'identity (process-command (jsonrpc--process server)) " ")))
  ;; The finding, as a warning: the workspace configuration took effect.
  (let* ((arrived (hlolint-try-wait
                   (lambda ()
                     (cl-find 'eglot-warning (flymake-diagnostics) :key #'flymake-diagnostic-type))))
         (diagnostics (flymake-diagnostics))
         (first (car diagnostics))
         (lsp (and first (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data first))))))
    (hlolint-try-say "diagnostics (flymake):")
    (dolist (d diagnostics)
      (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))))
        (hlolint-try-say "  %s: %s: %s [%s] (%s)" (hlolint-try-position (flymake-diagnostic-beg d))
                         (flymake-diagnostic-type d) (flymake-diagnostic-text d)
                         (plist-get lsp :code)
                         (plist-get (plist-get lsp :codeDescription) :href))))
    (hlolint-try-check (and arrived (= (length diagnostics) 1)
                            (equal (hlolint-try-position (flymake-diagnostic-beg first))
                                   (format "%d:3" (hlolint-try-line-of "^ *sum =")))
                            (equal (plist-get lsp :code) "verify-shape"))
                       "one verify-shape warning on sum")
    (hlolint-try-check (equal (plist-get (plist-get lsp :codeDescription) :href)
                              "file:///opt/hlolint/docs/rules/verify-shape.md")
                       "the initializationOptions ruleDocsUrl gave the link to the rule")
    (unless arrived (error "No diagnostics"))))

(defun hlolint-try-type-after-settings (settings type)
  "Set the workspace configuration to SETTINGS and tell the server, as a user does."
  (setq-default eglot-workspace-configuration settings)
  (call-interactively #'eglot-signal-didChangeConfiguration)
  (prog1 (hlolint-try-wait (lambda () (let ((diagnostics (flymake-diagnostics)))
                                        (and (= (length diagnostics) 1)
                                             (eq (flymake-diagnostic-type (car diagnostics)) type)))))
    (hlolint-try-say "after eglot-signal-didChangeConfiguration with %S: %s" settings
                     (mapconcat (lambda (d) (format "%s: %s" (hlolint-try-position (flymake-diagnostic-beg d))
                                                    (flymake-diagnostic-type d)))
                                (flymake-diagnostics) ", "))))

(defun hlolint-try-settings-change ()
  "New settings while the server runs: the finding becomes a note, then a warning again."
  (let ((configured (default-value 'eglot-workspace-configuration)))
    (hlolint-try-check (hlolint-try-type-after-settings
                        '(:hlolint (:severityOverrides (:verify-shape "note"))) 'eglot-note)
                       "the finding became a note")
    (hlolint-try-check (hlolint-try-type-after-settings configured 'eglot-warning)
                       "the finding is a warning again")))

(defun hlolint-try-config-file ()
  "A .hlolint.json saved beside the dump: the finding goes, and comes back."
  (if (not (equal (getenv "HLOLINT_TRY_CONFIG_SAVES") "1"))
      (hlolint-try-say "saving .hlolint.json: not tried (this configuration does not tell the server)")
    (hlolint-try-config-file-saves)))

(defun hlolint-try-config-file-saves ()
  (let ((config (expand-file-name ".hlolint.json")))
    (dolist (step '(("{\"ignore\": [\"verify-shape\"]}" nil "the configuration file took the finding away")
                    ("{}" (eglot-warning)
                     "the finding came back, still a warning through the settings")))
      (with-current-buffer (find-file-noselect config)
        (erase-buffer)
        (insert (car step))
        (save-buffer))
      (hlolint-try-check (hlolint-try-wait (lambda () (equal (mapcar #'flymake-diagnostic-type
                                                                     (flymake-diagnostics))
                                                             (nth 1 step))))
                         (nth 2 step))
      (hlolint-try-say "after saving .hlolint.json %s: %S" (car step)
                       (mapcar #'flymake-diagnostic-type (flymake-diagnostics))))
    (kill-buffer (get-file-buffer config))
    (delete-file config)))

(defun hlolint-try-hover ()
  (hlolint-try-goto "^ *sum =" "sum")
  (let (shown)
    (eglot-hover-eldoc-function (lambda (info &rest _) (setq shown (or info ""))))
    (hlolint-try-wait (lambda () shown))
    (hlolint-try-say "hover on sum (eldoc):")
    (dolist (line (split-string (or shown "") "\n"))
      (hlolint-try-say "  | %s" line))
    (hlolint-try-check (and shown (string-match-p "%sum" shown) (string-match-p "f32\\[5\\]{0}" shown)
                            (string-match-p "verify-shape" shown))
                       "the hover shows the shape and the finding")))

(defun hlolint-try-definition (line-regexp token want-regexp want-column)
  (let ((buffer (current-buffer))
        (from (hlolint-try-goto line-regexp token)))
    (call-interactively #'xref-find-definitions)
    (hlolint-try-wait (lambda () (/= (line-number-at-pos) from)))
    (hlolint-try-say "definition of %s at %d -> %s: %s" token from (hlolint-try-position)
                     (buffer-substring (line-beginning-position) (line-end-position)))
    (hlolint-try-check (and (eq (current-buffer) buffer)
                            (equal (hlolint-try-position)
                                   (format "%d:%d" (hlolint-try-line-of want-regexp) want-column)))
                       (concat "the definition of " token))))

(defun hlolint-try-xref-buffer (title command)
  "Run COMMAND, which shows an *xref* buffer; print it and return its text."
  (let ((buffer (current-buffer))
        (window (selected-window)))
    ;; Renamed, not killed: xref has a timer on it.
    (when (get-buffer "*xref*") (with-current-buffer "*xref*" (rename-uniquely)))
    (call-interactively command)
    (hlolint-try-wait (lambda () (get-buffer "*xref*")))
    (let ((text (if (get-buffer "*xref*")
                    (with-current-buffer "*xref*" (buffer-substring-no-properties (point-min) (point-max)))
                  "")))
      (hlolint-try-say "%s (*xref*):" title)
      (dolist (line (split-string text "\n" t))
        (hlolint-try-say "  | %s" line))
      (select-window window)
      (switch-to-buffer buffer)
      text)))

(defun hlolint-try-references ()
  (hlolint-try-goto "^ *p1 =" "p1")
  (let ((text (hlolint-try-xref-buffer "references of p1" #'xref-find-references)))
    (hlolint-try-check
     (equal (mapcar (lambda (line) (car (split-string line ":")))
                    (cl-remove-if-not (lambda (line) (string-match-p "^ *[0-9]+:" line))
                                      (split-string text "\n")))
            (mapcar (lambda (regexp) (format "%d" (hlolint-try-line-of regexp)))
                    '("^ *p1 =" "^ *sum =" "^ *total =" "^ *ROOT out =")))
     "p1 and its three users")))

(defun hlolint-try-workspace-symbols ()
  (let* ((read-string-function nil)
         (text (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "ADD")))
                 (hlolint-try-xref-buffer "workspace symbols matching ADD" #'xref-find-apropos))))
    (hlolint-try-check (string-match-p (format "^ *%d: *add_f32" (hlolint-try-line-of "^add_f32 {")) text)
                       "the computation add_f32")))

(defun hlolint-try-imenu-names (index)
  (cl-loop for (name . rest) in index
           append (cons (substring-no-properties name)
                        (and (listp rest) (not (markerp rest)) (not (numberp rest))
                             (not (overlayp rest)) (consp (car-safe rest))
                             (hlolint-try-imenu-names rest)))))

(defun hlolint-try-symbols ()
  (let ((names (hlolint-try-imenu-names (funcall imenu-create-index-function))))
    (hlolint-try-say "document symbols (imenu): %s" (mapconcat #'identity names " "))
    (hlolint-try-check (and (member "add_f32" names) (member "main" names) (member "sum" names))
                       "the computations and their instructions")))

(defun hlolint-try-code-action ()
  (let* ((lines-before (count-lines (point-min) (point-max)))
         (line (hlolint-try-goto "^ *sum =" "sum"))
         (actions (eglot-code-actions (point) (point) "quickfix")))
    (hlolint-try-say "code actions offered: %s"
                     (mapconcat (lambda (a) (plist-get a :title)) actions " | "))
    (eglot-code-actions (point) (point) "quickfix" t)
    (let ((applied (hlolint-try-wait (lambda () (= (count-lines (point-min) (point-max))
                                                   (1+ lines-before)))))
          (text (save-excursion (goto-char (point-min)) (forward-line (1- line))
                                (buffer-substring (point) (line-end-position)))))
      (hlolint-try-say "line %d after applying it: %s" line text)
      (hlolint-try-check (and applied (string-match-p "^ *// hlolint: ignore\\[verify-shape\\]" text))
                         "the suppression comment was inserted"))
    (let ((cleared (hlolint-try-wait (lambda () (null (flymake-diagnostics))))))
      (hlolint-try-say "diagnostics after the edit: %d" (length (flymake-diagnostics)))
      (hlolint-try-check cleared "the suppressed finding went away after the edit"))))

(defun hlolint-try-mode-of (name)
  "The major mode Emacs picks for a file called NAME.
In a directory of its own, so that eglot does not take the buffer in."
  (with-temp-buffer
    (setq default-directory "/hlolint-try-names/")
    (setq buffer-file-name (expand-file-name name))
    (let ((hlo-mode-hook nil))
      (set-auto-mode))
    (prog1 major-mode (setq buffer-file-name nil))))

(defun hlolint-try-filetypes ()
  (let ((hlo (split-string (or (getenv "HLOLINT_TRY_HLO_NAMES") "") "\n" t))
        (other (split-string (or (getenv "HLOLINT_TRY_OTHER_NAMES") "") "\n" t))
        wrong)
    (dolist (name hlo)
      (unless (eq (hlolint-try-mode-of name) 'hlo-mode) (push (concat "not hlo-mode: " name) wrong)))
    (dolist (name other)
      (when (eq (hlolint-try-mode-of name) 'hlo-mode) (push (concat "hlo-mode: " name) wrong)))
    (hlolint-try-say "mode detection: %d HLO names, %d other names: %s" (length hlo) (length other)
                     (if wrong (mapconcat #'identity (nreverse wrong) "; ") "as expected"))
    (hlolint-try-check (and (null wrong) hlo other) "mode detection")))

(defun hlolint-try-all (file)
  (add-to-list 'load-path (file-name-directory load-file-name))
  (unless (require 'eglot nil t)
    (package-initialize)  ; an eglot installed as a package (Emacs 28 and earlier)
    (require 'eglot))
  (load (getenv "HLOLINT_TRY_CONFIG") nil t)
  (hlolint-try-say "GNU Emacs %s, %s" emacs-version (hlolint-try-library-version "eglot"))
  (find-file file)
  (hlolint-try-say "file %s: %s" (file-name-nondirectory file) major-mode)
  (hlolint-try-check (eq major-mode 'hlo-mode) "the dump is in hlo-mode")
  (hlolint-try-diagnostics)
  (hlolint-try-settings-change)
  (hlolint-try-config-file)
  (hlolint-try-hover)
  (hlolint-try-definition "^ *sum =" "p1" "^ *p1 =" 3)
  (hlolint-try-definition "^ *total =" "add_f32" "^add_f32 {" 1)
  (hlolint-try-references)
  (hlolint-try-workspace-symbols)
  (hlolint-try-symbols)
  (hlolint-try-code-action)
  (hlolint-try-filetypes)
  (let* ((server (eglot-current-server))
         (process (jsonrpc--process server))
         (start (float-time)))
    (eglot-shutdown server)
    (hlolint-try-say "eglot-shutdown: the server's process %s (exit status %s) after %.1f s"
                     (process-status process) (process-exit-status process) (- (float-time) start))))

(condition-case error
    (hlolint-try-all (expand-file-name (car command-line-args-left)))
  (error (hlolint-try-check nil (format "%S" error))))
(setq command-line-args-left nil)
(hlolint-try-say (if (zerop hlolint-try-failures) "emacs: ok"
                   (format "emacs: %d failed" hlolint-try-failures)))
(kill-emacs (if (zerop hlolint-try-failures) 0 1))

;;; try.el ends here
