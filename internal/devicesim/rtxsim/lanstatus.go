package rtxsim

import (
	"fmt"
	"strconv"
	"strings"
)

// LANCounters are the packet and octet counters `show status lanN`
// prints for a LAN (SetLANCounters); a LAN without any prints zeros.
type LANCounters struct {
	TxPackets, TxOctets, RxPackets, RxOctets int64
}

// SetLANCounters sets what `show status <lan>` prints for lan ("lan1").
func (s *Sim) SetLANCounters(lan string, c LANCounters) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lanCounters == nil {
		s.lanCounters = map[string]LANCounters{}
	}
	s.lanCounters[lan] = c
}

// showStatusLAN is `show status lanN`: the counter lines in the published
// layout (takabus.com's rtxlogger matches `送信パケット:` + 19 spaces +
// count, `IPv4(全体/ファストパス):` + 6 spaces, `IPv4:` + 25 spaces; a Lua
// exporter `送信パケット:\s*(\d+)\s*パケット\((\d+)\s*オクテット\)`; English
// "Transmitted: 10 packets (100 octets)"). The lines before them (the
// LAN's name, address, MAC, mode, MTU) and the English spacing are an
// assumption; every packet is counted as IPv4 through the fast path.
// A LAN the model lacks is refused as an unknown parameter.
func (s *Sim) showStatusLAN(cs charset, lan string) (string, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(lan, "lan"))
	if !strings.HasPrefix(lan, "lan") || err != nil || n < 1 || n > s.hw.lans {
		return "", false
	}
	s.mu.Lock()
	c := s.lanCounters[lan]
	s.mu.Unlock()
	mac := s.macs()[n-1]
	var b strings.Builder
	if cs.english() {
		fmt.Fprintf(&b, "LAN%d\nDescription:\nEthernet address:             %s\nOperation mode setting:       Auto Negotiation (1000BASE-T Full Duplex)\nMaximum Transmission Unit(MTU): 1500 octets\nPromiscuous mode:             OFF\n", n, mac)
		fmt.Fprintf(&b, "Transmitted:                  %d packets (%d octets)\n  IPv4(all/fastpath):         %d packets / %d packets\n  IPv6(all/fastpath):         0 packets / 0 packets\n", c.TxPackets, c.TxOctets, c.TxPackets, c.TxPackets)
		fmt.Fprintf(&b, "Received:                     %d packets (%d octets)\n  IPv4:                       %d packets\n  IPv6:                       0 packets\n", c.RxPackets, c.RxOctets, c.RxPackets)
		return b.String(), true
	}
	fmt.Fprintf(&b, "LAN%d\n説明:\nイーサネットアドレス:           %s\n動作モード設定:                 Auto Negotiation (1000BASE-T Full Duplex)\n最大パケット長(MTU):            1500 オクテット\nプロミスキャスモード:           OFF\n", n, mac)
	fmt.Fprintf(&b, "送信パケット:                   %d パケット(%d オクテット)\nIPv4(全体/ファストパス):      %d パケット / %d パケット\nIPv6(全体/ファストパス):      0 パケット / 0 パケット\n", c.TxPackets, c.TxOctets, c.TxPackets, c.TxPackets)
	fmt.Fprintf(&b, "受信パケット:                   %d パケット(%d オクテット)\nIPv4:                         %d パケット\nIPv6:                         0 パケット\n", c.RxPackets, c.RxOctets, c.RxPackets)
	return b.String(), true
}
