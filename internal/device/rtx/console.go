package rtx

import (
	"regexp"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// Console is how the transport drives an RTX console (command.Console):
//
//   - the prompt is "> " after login, "# " in administrator mode,
//     "tunnel1# " / "pp1# " / "anonymous# " inside a select block, with
//     whatever `console prompt` puts before it;
//   - the console is used as the owner set it: no `console columns`,
//     `console lines` or `console character` is typed. Those are
//     configuration commands, typed at "> " as much as at "# ": "本コマンドの
//     設定は、save コマンドで保存しなくても show config コマンドで設定が表示
//     される" (RTX command reference Rev.23.02.02, 4.21-4.23, ノート), and the
//     driver's next `save` would write them over the owner's. So the
//     output comes paged (Pager: the "---つづく---" / "---More---" prompt
//     every `console lines` rows, 24 by default, answered with a space),
//     wrapped at `console columns` (80 by default; the parser joins the
//     rows again, dewrap) and in the console's character set (Decode);
//   - leaving administrator mode with unsaved changes asks "Save new
//     configuration ? (Y/N)" ("新しい設定を保存しますか? (Y/N)"): the
//     answer is N, the driver saves explicitly when a change set is
//     complete, so a change set the router refused half-way stays unsaved;
//   - errors print "Error: ..." (English firmware, `console character
//     ascii`) or "エラー: ...".
func Console() *command.Console {
	return &command.Console{
		Prompt:         promptRE,
		Enable:         "administrator",
		PasswordPrompt: regexp.MustCompile(`Password: ?$`),
		Pager:          pagerRE,
		PagerKey:       " ",
		Exit:           []string{"exit", "exit"},
		Confirm:        map[string]string{"(Y/N)": "N"},
		Errors: []*regexp.Regexp{
			regexp.MustCompile(`^\s*Error: `),
			regexp.MustCompile(`^\s*エラー: `),
		},
		// The CPU probe's poll needs no administrator: the benchmark
		// logs in once a second without taking the administrator
		// session (a configuration read still does: show config).
		Unprivileged: regexp.MustCompile(`^` + regexp.QuoteMeta(EnvironmentCommand) + `$`),
	}
}

// promptRE matches the last line printed when the console waits for a
// command: up to 64 characters of `console prompt` and select context,
// then ">" or "#" and a space, nothing after.
var promptRE = regexp.MustCompile(`^.{0,64}[>#] $`)

// Decode converts console output to UTF-8. Japanese firmware prints
// Shift_JIS (`console character ja.sjis`, the default), newer firmware
// may be set to UTF-8 (`ja.utf8`) and English firmware prints ASCII: text
// that is valid UTF-8 (ASCII included) is kept as it is, anything else is
// read as Shift_JIS, whose Japanese text is almost never valid UTF-8 (its
// commonest lead bytes, 0x81-0x9F, cannot start a UTF-8 character). So the transport need
// not change the router's character set, which in administrator mode
// would change its configuration.
func Decode(b []byte) ([]byte, error) {
	if utf8.Valid(b) {
		return b, nil
	}
	return japanese.ShiftJIS.NewDecoder().Bytes(b)
}
