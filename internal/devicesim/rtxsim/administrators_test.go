package rtxsim

import (
	"io"
	"testing"
	"time"
)

// Over SSH the models rtxsim knows take several administrators at once
// (RTX command reference Rev.23.02.02, 2.1: with TELNET multi-session and
// the SSH server "複数のユーザが同時に管理ユーザになることができ"): by
// default a second console enters administrator while the first is in it,
// and Administrators counts them.
func TestSeveralAdministratorsByDefault(t *testing.T) {
	s := newSim(t, Options{AdminPassword: "sim-admin", Language: "en"})
	a := admin(t, s)
	b := admin(t, s)
	if now, most := s.Administrators(); now != 2 || most != 2 {
		t.Errorf("Administrators() = %d, %d; want 2, 2", now, most)
	}
	step(t, a, "exit", "", "> ")
	step(t, b, "exit", "", "> ")
	if now, most := s.Administrators(); now != 0 || most != 2 {
		t.Errorf("after both left: Administrators() = %d, %d; want 0, 2", now, most)
	}
}

// With OneAdministrator (the rule 2.1 states for access without
// multi-session: "管理ユーザになれるのは同時に 1 ユーザだけ"), a second
// `administrator` is refused and the console stays at "> "; when the
// first leaves administrator (exit, or the session ends) the next may
// enter.
func TestOneAdministrator(t *testing.T) {
	for _, lang := range []string{"en", "ja"} {
		t.Run(lang, func(t *testing.T) {
			s := newSim(t, Options{AdminPassword: "sim-admin", Language: lang, OneAdministrator: true})
			refusal := s.newConsole().cs.text(msgAdminBusy) + "\n"
			first := admin(t, s)
			second := s.newConsole()
			step(t, second, "administrator", refusal, "> ")
			if !second.failed {
				t.Error("the refusal is not an error line")
			}
			// The first leaves administrator: the second may enter.
			step(t, first, "exit", "", "> ")
			step(t, second, "administrator", "", "Password: ")
			step(t, second, "sim-admin", "", "# ")
			step(t, first, "administrator", refusal, "> ")
			step(t, second, "exit", "", "> ")

			// A session that ends (disconnect) in administrator
			// frees it.
			in, w := io.Pipe()
			done := make(chan struct{})
			go func() { s.Shell(in, io.Discard); close(done) }()
			if _, err := io.WriteString(w, "administrator\rsim-admin\r"); err != nil {
				t.Fatal(err)
			}
			waitAdministrators(t, s, 1)
			step(t, first, "administrator", refusal, "> ")
			w.Close()
			<-done
			if now, _ := s.Administrators(); now != 0 {
				t.Fatalf("after the session ended: %d administrators, want 0", now)
			}
			step(t, first, "administrator", "", "Password: ")
			step(t, first, "sim-admin", "", "# ")
		})
	}
}

// A refused password frees nothing and holds nothing; a console that
// typed `administrator` while free but gives its password after another
// console entered is refused then.
func TestOneAdministratorRace(t *testing.T) {
	s := newSim(t, Options{AdminPassword: "sim-admin", Language: "en", OneAdministrator: true})
	refusal := s.newConsole().cs.text(msgAdminBusy) + "\n"
	a, b := s.newConsole(), s.newConsole()
	step(t, a, "administrator", "", "Password: ")
	step(t, a, "wrong", "Error: Incorrect password\n", "> ")
	step(t, a, "administrator", "", "Password: ")
	step(t, b, "administrator", "", "Password: ")
	step(t, b, "sim-admin", "", "# ")
	step(t, a, "sim-admin", refusal, "> ")
	if now, most := s.Administrators(); now != 1 || most != 1 {
		t.Errorf("Administrators() = %d, %d; want 1, 1", now, most)
	}
}

func waitAdministrators(t *testing.T, s *Sim, want int) {
	t.Helper()
	for range 2000 {
		if now, _ := s.Administrators(); now == want {
			return
		}
		time.Sleep(time.Millisecond)
	}
	now, _ := s.Administrators()
	t.Fatalf("%d administrators, want %d", now, want)
}
