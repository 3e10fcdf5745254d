package rtx

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Models and firmware (issue 23 point 10). Every command routerlab types
// at an RTX console is in modelCommands with the section of the YAMAHA
// RTX command reference Rev.23.02.02 that describes it, the section's
// "[適用モデル]" (models) line as printed, and the "[ノート]" (note)
// revision line that limits what routerlab writes. At plan the driver's
// Check functions render what they would type and look each line up for
// the snapshot's model and firmware (device.Facts, read from the `show
// config` header): a line the model's reference entry does not have, or
// has only from a later revision, is refused there, naming the model,
// the firmware, the command and the revision needed.
//
// What the table knows, per model routerlab meets:
//
//   - RTX830, RTX1210, RTX1220, RTX1300: every command routerlab writes
//     is in their [適用モデル] lines. One revision note limits what
//     routerlab writes: IKEv1 main-mode NAT traversal, which the
//     L2TP/IPsec server turns on, needs RTX1210 Rev.14.01.20 or later
//     (15.48.5). Their LAN MTU range is 8.1.4's (lanMTUMax).
//   - RTX810: not in this reference at all (its [適用モデル] lines start at
//     the RTX830). What it is known to run is what seed 001 shows it
//     running on Rev.11.01.33: those commands carry the seed's line
//     (seed001). For the rest the RTX810's support is unconfirmed: no
//     source says it has them, and none says it lacks them, so they are
//     not refused; the console refuses at apply what the router lacks
//     (the driver names the refused line). `ip routing process`
//     (routerlab_offload) is one of them: seed 001 does not set it.
//   - Any other model (NVR510, RTX1200, ...) or a header without a model:
//     nothing is refused here for the same reason.
//
// Not in the table because routerlab does not write it: `ipsec ike
// proposal-limitation` (15.44 折衝パラメーターを制限するか否かの設定,
// [ノート] "RTX1210 は Rev.14.01.09 以降で使用可能。"; an IKEv2 tunnel
// accepts any suite the router supports, see proposals.go).

// modelCommand is one command as routerlab writes it.
type modelCommand struct {
	// pattern is the command's words, "*" for any one word (an
	// interface, a number).
	pattern string
	// section is the reference section (number and title) describing it.
	section string
	// models is the section's [適用モデル] line as printed.
	models string
	// note is the section's [ノート] revision line that limits what
	// routerlab writes, as printed; since holds the first revision with
	// it per model, and use says which use of the command the note is
	// about ("" : the command itself).
	note  string
	since map[string]string
	use   string
	// seed001 is (the start of) seed 001's line that shows the RTX810
	// running the command on Rev.11.01.33, as
	// testdata/seed_001_published.txt records it (lab addresses and
	// names); "" when seed 001 does not run it (unconfirmed).
	seed001 string
}

// allModels is the [適用モデル] line of most sections of the reference.
const allModels = "vRX シリーズ , RTX5000, RTX3510, RTX3500, RTX1300, RTX1220, RTX1210, RTX840, RTX830"

// referenceModels are the models the reference Rev.23.02.02 covers (the
// union of its [適用モデル] lines); a model outside it is not judged.
var referenceModels = []string{"vRX", "RTX5000", "RTX3510", "RTX3500", "RTX1300", "RTX1220", "RTX1210", "RTX840", "RTX830"}

// modelCommands lists every command routerlab's renderers write (TestModelTableCoversRenderers).
var modelCommands = []modelCommand{
	// Chapter 4 機器の設定.
	{pattern: "ip routing process", section: "4.46 ファストパス機能の設定", models: allModels},
	{pattern: "description", section: "4.56 インタフェースまたはシステムの説明の設定", models: allModels},
	// Chapter 6 ISDN 関連の設定 (pp always-on is there).
	{pattern: "pp always-on", section: "6.2.1 常時接続の設定", models: allModels},
	// Chapter 8 IP の設定.
	{pattern: "ip * address", section: "8.1.2 IP アドレスの設定", models: allModels, seed001: "ip lan1 address 198.18.100.1/24"},
	{pattern: "ip * mtu", section: "8.1.4 インタフェースの MTU の設定", models: allModels, seed001: "ip tunnel mtu 1438"},
	{pattern: "ip route", section: "8.1.7 IP の静的経路情報の設定", models: allModels, seed001: "ip route 198.18.200.0/24 gateway tunnel 1"},
	{pattern: "ip filter", section: "8.1.10 IP パケットのフィルターの設定", models: allModels, seed001: "ip filter 1000 pass * 198.18.100.0/24 icmp"},
	{pattern: "ip filter dynamic", section: "8.1.14 動的フィルターの定義", models: allModels, seed001: "ip filter dynamic 100 * * tcp"},
	{pattern: "ip * tcp mss limit", section: "8.1.21 TCP セッションの MSS 制限の設定", models: allModels, seed001: "ip tunnel tcp mss limit auto"},
	{pattern: "ip * secure filter", section: "8.1.25 フィルタリングによるセキュリティーの設定", models: allModels, seed001: "ip lan2 secure filter in 1000 1010 1020 2000"},
	{pattern: "ip pp remote address pool", section: "8.2.2 リモート IP アドレスプールの設定", models: allModels},
	// Chapter 11 PPP の設定.
	{pattern: "pp auth username", section: "11.1 相手の名前とパスワードの設定", models: allModels},
	{pattern: "pp auth accept", section: "11.2 受け入れる認証タイプの設定", models: allModels},
	{pattern: "pp auth request", section: "11.3 要求する認証タイプの設定", models: allModels},
	{pattern: "pp auth myname", section: "11.4 自分の名前とパスワードの設定", models: allModels},
	{pattern: "ppp lcp mru", section: "11.6.3 Maximum Receive Unit オプション使用の設定", models: allModels},
	{pattern: "ppp ipcp ipaddress", section: "11.9.2 PP 側 IP アドレスのネゴシエーションの設定", models: allModels},
	{pattern: "ppp ipcp msext", section: "11.9.8 IPCP の MS 拡張オプションを使うか否かの設定", models: allModels},
	{pattern: "ppp ccp type", section: "11.11.1 全パケットの圧縮タイプの設定", models: allModels},
	{pattern: "pppoe use", section: "11.16.1 PPPoE で使用する LAN インタフェースの指定", models: "vRX VMware ESXi 版, RTX5000, RTX3510, RTX3500, RTX1300, RTX1220, RTX1210, RTX840, RTX830"},
	{pattern: "pppoe service-name", section: "11.16.10 サービス名の指定", models: "vRX VMware ESXi 版, RTX5000, RTX3510, RTX3500, RTX1300, RTX1220, RTX1210, RTX840, RTX830"},
	// Chapter 14 トンネリング.
	{pattern: "tunnel enable", section: "14.1 トンネルインターフェースの使用許可の設定", models: allModels, seed001: "tunnel enable 1"},
	{pattern: "tunnel encapsulation", section: "14.4 トンネルインタフェースの種別の設定", models: allModels},
	// Chapter 15 IPsec の設定.
	{pattern: "ipsec ike version", section: "15.2 IKE バージョンの設定", models: allModels, seed001: "ipsec ike version 1 2"},
	{pattern: "ipsec ike pre-shared-key", section: "15.5 事前共有鍵の登録", models: allModels, seed001: "ipsec ike pre-shared-key 1 text"},
	{pattern: "ipsec auto refresh", section: "15.10 IKE の鍵交換を始動するか否かの設定", models: allModels, seed001: "ipsec auto refresh on"},
	{pattern: "ipsec ike remote name", section: "15.14 相手側のセキュリティ・ゲートウェイの名前の設定", models: allModels, seed001: "ipsec ike remote name 1 debian.lab.test fqdn"},
	{pattern: "ipsec ike remote address", section: "15.15 相手側セキュリティ・ゲートウェイの IP アドレスの設定", models: allModels},
	{pattern: "ipsec ike remote id", section: "15.16 相手側の ID の設定", models: allModels},
	{pattern: "ipsec ike local name", section: "15.17 自分側のセキュリティ・ゲートウェイの名前の設定", models: allModels, seed001: "ipsec ike local name 1 rtx810.lab.test fqdn"},
	{pattern: "ipsec ike local address", section: "15.18 自分側セキュリティ・ゲートウェイの IP アドレスの設定", models: allModels},
	{pattern: "ipsec ike local id", section: "15.19 自分側の ID の設定", models: allModels},
	{pattern: "ipsec ike keepalive use", section: "15.20 IKE キープアライブ機能の設定", models: allModels, seed001: "ipsec ike keepalive use 1 on"},
	{pattern: "ipsec ike keepalive log", section: "15.21 IKE キープアライブに関する SYSLOG を出力するか否かの設定", models: allModels, seed001: "ipsec ike keepalive log 1 off"},
	{pattern: "ipsec ike encryption", section: "15.22 IKE が用いる暗号アルゴリズムの設定", models: allModels},
	{pattern: "ipsec ike group", section: "15.24 IKE が用いるグループの設定", models: allModels},
	{pattern: "ipsec ike hash", section: "15.25 IKE が用いるハッシュアルゴリズムの設定", models: allModels},
	{pattern: "ipsec ike pfs", section: "15.30 PFS を用いるか否かの設定", models: allModels},
	{pattern: "ipsec ike duration", section: "15.48.1 SA の寿命の設定", models: allModels},
	{pattern: "ipsec sa policy", section: "15.48.2 SA のポリシーの定義", models: allModels, seed001: "ipsec sa policy 1 1 esp"},
	{
		pattern: "ipsec ike nat-traversal", section: "15.48.5 IPsec NAT トラバーサルを利用するための設定", models: allModels,
		note:  "IKEv1メインモードでの NATトラバーサルは、 RTX5000 / RTX3500 Rev.14.00.21 以前、および RTX1210 Rev.14.01.19 以前では使用不可能。",
		since: map[string]string{"RTX1210": "Rev.14.01.20", "RTX5000": "Rev.14.00.22", "RTX3500": "Rev.14.00.22"},
		// routerlab writes it only for the L2TP/IPsec server, whose IKE
		// is IKEv1 main mode (chapter 16: IKEv1 only; 15.48.5: L2TP/IPsec
		// uses it in main mode and transport mode).
		use: "in IKEv1 main mode (routerlab's L2TP/IPsec server turns it on)",
	},
	{pattern: "ipsec tunnel", section: "15.49.3 使用する SA のポリシーの設定", models: allModels, seed001: "ipsec tunnel 1"},
	{pattern: "ipsec transport", section: "15.50.1 トランスポートモードの定義", models: allModels},
	// Chapter 16 L2TP 機能の設定.
	{pattern: "l2tp service", section: "16.1 L2TP を動作させるか否かの設定", models: allModels},
	{pattern: "l2tp tunnel disconnect time", section: "16.3 L2TP トンネルの切断タイマの設定", models: allModels},
	// Chapter 17 PPTP 機能の設定 (pp bind tunnelN is there).
	{pattern: "pp bind", section: "17.1.2 相手先情報番号にバインドされるトンネルインタフェースの設定", models: allModels},
	// Chapter 23 NAT 機能.
	{pattern: "ip * nat descriptor", section: "23.2 インタフェースへの NAT ディスクリプタ適用の設定", models: allModels, seed001: "ip lan2 nat descriptor 1"},
	{pattern: "nat descriptor type", section: "23.3 NAT ディスクリプタの動作タイプの設定", models: allModels, seed001: "nat descriptor type 1 masquerade"},
	{pattern: "nat descriptor address outer", section: "23.4 NAT 処理の外側 IP アドレスの設定", models: allModels, seed001: "nat descriptor address outer 1 primary"},
	{pattern: "nat descriptor masquerade static", section: "23.8 静的 IP マスカレードエントリの設定", models: allModels, seed001: "nat descriptor masquerade static 1 1 198.18.100.1 udp 500"},
	// Chapter 56 操作.
	{pattern: "pp select", section: "56.1 相手先情報番号の選択", models: allModels},
	{pattern: "tunnel select", section: "56.2 トンネルインタフェース番号の選択", models: allModels, seed001: "tunnel select 1"},
	{pattern: "pp enable", section: "56.7.1 相手先の使用許可の設定", models: allModels},
}

// lanMTUMax is the largest `ip lanN mtu` per model (RTX command reference
// Rev.23.02.02, 8.1.4 インタフェースの MTU の設定: "64..1500 ；RTX5000 、
// RTX3500 の LAN インタフェースは 64..9578、RTX3510 、RTX1300 の LAN
// インターフェースは 64..10218"). The RTX810 is not in the reference and
// seed 001 sets no LAN MTU: not judged.
var lanMTUMax = map[string]int{
	"vRX": 1500, "RTX840": 1500, "RTX830": 1500, "RTX1210": 1500, "RTX1220": 1500,
	"RTX5000": 9578, "RTX3500": 9578, "RTX3510": 10218, "RTX1300": 10218,
}

// match reports whether words w are command p's.
func (p modelCommand) match(w []string) bool {
	pw := strings.Fields(p.pattern)
	if len(w) < len(pw) {
		return false
	}
	for i, x := range pw {
		if x != "*" && x != w[i] {
			return false
		}
	}
	return true
}

// lookupCommand is the table's entry for a line's words: the longest
// pattern that matches ("ip filter dynamic", not "ip filter").
func lookupCommand(w []string) (modelCommand, bool) {
	var best modelCommand
	found := false
	for _, p := range modelCommands {
		if p.match(w) && (!found || len(strings.Fields(p.pattern)) > len(strings.Fields(best.pattern))) {
			best, found = p, true
		}
	}
	return best, found
}

// referenceModel returns the reference's name of a model ("vRX" for the
// vRX series) and whether the reference covers it.
func referenceModel(model string) (string, bool) {
	if strings.HasPrefix(model, "vRX") {
		return "vRX", true
	}
	return model, slices.Contains(referenceModels, model)
}

// listed reports whether a [適用モデル] line names model.
func listed(models, model string) bool {
	for _, m := range strings.Split(models, ",") {
		m = strings.TrimSpace(m)
		if m == model || (model == "vRX" && strings.HasPrefix(m, "vRX")) {
			return true
		}
	}
	return false
}

// parseRevision reads "Rev.14.01.19" (or "14.01.19") as numbers.
func parseRevision(s string) ([]int, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "Rev.")
	if s == "" {
		return nil, false
	}
	var out []int
	for _, p := range strings.Split(s, ".") {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// olderThan reports whether firmware is a revision before since; false
// when either cannot be read (nothing is refused on a guess).
func olderThan(firmware, since string) bool {
	a, ok1 := parseRevision(firmware)
	b, ok2 := parseRevision(since)
	return ok1 && ok2 && slices.Compare(a, b) < 0
}

// checkModelLine judges one console line for the device f describes.
func checkModelLine(f device.Facts, w []string) error {
	if len(w) == 0 || w[0] == "no" {
		// Removing what the router printed needs nothing it lacks.
		return nil
	}
	if len(w) == 3 && w[1] == "select" && w[2] == "none" {
		return nil
	}
	p, ok := lookupCommand(w)
	if !ok {
		return nil
	}
	model, covered := referenceModel(f.Model)
	if !covered {
		return nil
	}
	words := strings.Fields(p.pattern)
	for i, x := range words {
		if x == "*" {
			words[i] = placeholder(w[i])
		}
	}
	name := strings.Join(words, " ")
	cite := fmt.Sprintf("RTX command reference Rev.23.02.02, %s", p.section)
	if !listed(p.models, model) {
		return fmt.Errorf("%s %s has no `%s` (%s, [適用モデル]: %s); routerlab cannot configure this on it", f.Model, f.Firmware, name, cite, p.models)
	}
	if since, ok := p.since[model]; ok && olderThan(f.Firmware, since) {
		use := ""
		if p.use != "" {
			use = " " + p.use
		}
		return fmt.Errorf("%s %s: `%s`%s needs %s or later on the %s (%s, [ノート]: %s); update the router's firmware or leave this out", f.Model, f.Firmware, name, use, since, model, cite, p.note)
	}
	return nil
}

// placeholder names a variable word of a command in an error: the
// interface (lan2, pp, tunnel), never a value (which may be a secret).
func placeholder(w string) string {
	if _, _, ok := splitIface(w); ok || w == "pp" || w == "tunnel" {
		return w
	}
	return "<value>"
}

// checkModel judges the commands a renderer would type for the device f
// describes: the first the model or its firmware lacks is the error.
func checkModel(f device.Facts, cmds []Cmd) error {
	for _, l := range Script(cmds) {
		if err := checkModelLine(f, SplitWords(l)); err != nil {
			return err
		}
	}
	return nil
}

// checkLANMTU refuses an `ip lanN mtu` above the model's range (8.1.4).
func checkLANMTU(f device.Facts, desired device.RouterConfig) error {
	model, _ := referenceModel(f.Model)
	limit, ok := lanMTUMax[model]
	if !ok {
		return nil
	}
	for _, name := range device.SortedKeys(desired.Interfaces) {
		if m := desired.Interfaces[name].MTU; m != nil && *m > limit {
			return fmt.Errorf("interface %s: mtu %d: the %s's LAN interfaces allow 64 to %d (RTX command reference Rev.23.02.02, 8.1.4 インタフェースの MTU の設定: 64..1500; 64..9578 on the RTX5000 and RTX3500, 64..10218 on the RTX3510 and RTX1300)", name, *m, f.Model, limit)
		}
	}
	return nil
}

// The Check functions' model checks (driver_config.go): what each
// resource would type, judged for the snapshot's model and firmware. A
// configuration that does not validate is not judged (planCheck reports
// the validation error first). routerlab_firewall is not judged: every
// command it writes (ip filter, ip filter dynamic, ip lanN|pp secure
// filter, nat descriptor ..., ip lanN tcp mss limit) is in the [適用モデル]
// line of every model of the reference with no revision note on what
// routerlab writes, and seed 001 runs all but the MSS clamp on the RTX810.

func checkRouterModel(f device.Facts, desired device.RouterConfig, observed device.RouterState) error {
	if err := checkLANMTU(f, desired); err != nil {
		return err
	}
	return checkModel(f, renderRouter(desired, observed))
}

func checkOffloadModel(f device.Facts, desired device.OffloadConfig) error {
	if _, ok := desired.Settings[OffloadGroup][OffloadKey]; !ok {
		return nil
	}
	return checkModel(f, []Cmd{cmd("", "ip", "routing", "process", "normal")})
}

func checkTunnelModel(f device.Facts, desired device.TunnelConfig) error {
	var cmds []Cmd
	switch valid := ValidateTunnel(desired) == nil; {
	case valid && desired.Type == device.TunnelIPsec:
		cmds = ipsecCmds(desired, 1)
	case valid && desired.Type == device.TunnelL2TPIPsec:
		cmds = append(l2tpCmds(desired, 1), cmd("", "l2tp", "service", "on"))
	}
	if err := checkModel(f, cmds); err != nil {
		return fmt.Errorf("tunnel %q: %w", desired.Name, err)
	}
	return nil
}

func checkPPPoEModel(f device.Facts, desired device.PPPoEConfig) error {
	var cmds []Cmd
	if ValidatePPPoE(desired) == nil {
		cmds = pppoeCmds(desired, 1)
	}
	if err := checkModel(f, cmds); err != nil {
		return fmt.Errorf("pppoe %s: %w", desired.Name, err)
	}
	return nil
}
