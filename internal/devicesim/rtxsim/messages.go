package rtxsim

// msg names a fixed text the console prints; each has a Japanese and an
// English wording (the firmware's language, or English after `console
// character ascii`/`en.ascii`). The wordings and where they come from are
// listed in testdata/README.md; those marked unverified there were not seen
// in any published console session.
type msg int

const (
	msgInvalidCommand  msg = iota // unknown command name
	msgParamCount                 // too few or too many parameters
	msgAdminOnly                  // a configuration command at the "> " prompt
	msgIllegalKeyword             // a keyword parameter the command does not know
	msgIntegerRequired            // a number parameter that is not one
	msgOutOfRange                 // a number outside the command's range
	msgBadIPAddress               // an address parameter that is not one
	msgSelectPP                   // a pp command without `pp select`
	msgSelectTunnel               // a tunnel command without `tunnel select`
	msgBadPassword                // wrong administrator password
	msgAdminBusy                  // `administrator` while another session is administrator (Options.OneAdministrator)
	msgSaving                     // what `save` prints
	msgSaveConfirm                // asked when leaving administrator with unsaved changes
	msgMore                       // the pager's prompt
	msgExecRefused                // exec requests (not a console message: SSH stderr)
)

// messages[m] = {Japanese, English}.
var messages = map[msg][2]string{
	msgInvalidCommand:  {"エラー: コマンド名を確認してください", "Error: Invalid command name"},
	msgParamCount:      {"エラー: パラメータの数が不適当です", "Error: Insufficient or too many parameters"},
	msgAdminOnly:       {"エラー: このコマンドは管理レベルでのみ使用できます", "Error: Administrator use only"},
	msgIllegalKeyword:  {"エラー: パラメータのキーワードが認識できません", "Error: Illegal keyword"},
	msgIntegerRequired: {"エラー: パラメータは整数で指定してください", "Error: Parameter must be an integer"},
	msgOutOfRange:      {"エラー: パラメータが範囲を越えています", "Error: Parameter out of range"},
	msgBadIPAddress:    {"エラー: IPアドレスが認識できません", "Error: Unrecognized IP address parameter"},
	msgSelectPP:        {"エラー: このコマンドは相手を選択してから実行してください", "Error: Execute pp select command beforehand"},
	msgSelectTunnel:    {"エラー: このコマンドはトンネルを選択してから実行してください", "Error: Execute tunnel select command beforehand"},
	msgBadPassword:     {"エラー: パスワードが間違っています", "Error: Incorrect password"},
	// Assumption, both wordings: no published session shows what RTX
	// prints when a second user types `administrator` (testdata/README.md).
	msgAdminBusy:   {"エラー: 他のユーザーが管理ユーザーになっています", "Error: Another user is in administrator mode"},
	msgSaving:      {"セーブ中... CONFIG0 終了", "Saving ... CONFIG0 Done ."},
	msgSaveConfirm: {"新しい設定を保存しますか? (Y/N)", "Save new configuration ? (Y/N)"},
	msgMore:        {"---つづく---", "---More---"},
	msgExecRefused: {"exec requests are not supported: YAMAHA RTX offers an interactive shell only", "exec requests are not supported: YAMAHA RTX offers an interactive shell only"},
}

// environmentLabels are the labels of `show environment` in Japanese
// firmware, in the order environment.go prints them.
var environmentLabels = []string{
	"メモリ", "パケットバッファ", "実行中ファームウェア", "実行中設定ファイル",
	"デフォルトファームウェア", "デフォルト設定ファイル", "起動時刻", "現在の時刻",
	"起動からの経過時間", "日", "セキュリティクラス レベル", "筐体内温度(℃)",
}
