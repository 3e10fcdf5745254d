package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// up starts `simctl serve` in the background and prints how to reach the
// simulators once they listen.
func up(state, routerOS, provider string) error {
	if err := os.MkdirAll(state, 0o700); err != nil {
		return err
	}
	if pid, err := readPID(state); err == nil && alive(pid) {
		return fmt.Errorf("simulators already running (PID %d, %s): make sim-down first", pid, state)
	}
	if provider != "" {
		abs, err := filepath.Abs(provider)
		if err != nil {
			return err
		}
		rc := "provider_installation {\n  dev_overrides { \"routerlab/routerlab\" = \"" + filepath.Dir(abs) + "\" }\n  direct {}\n}\n"
		if err := os.WriteFile(filepath.Join(state, rcFile), []byte(rc), 0o600); err != nil {
			return err
		}
	}
	_ = os.Remove(filepath.Join(state, readyFile))
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	log, err := os.Create(filepath.Join(state, logFile))
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(exe, "serve", "-state", state, "-routeros", routerOS)
	cmd.Stdout, cmd.Stderr = log, log
	// Its own session: it outlives this command and the terminal.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	if err := os.WriteFile(filepath.Join(state, pidFile), []byte(strconv.Itoa(pid)+"\n"), 0o600); err != nil {
		_ = cmd.Process.Kill()
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(state, readyFile)); err == nil {
			break
		}
		select {
		case err := <-exited:
			b, _ := os.ReadFile(filepath.Join(state, logFile))
			return fmt.Errorf("the simulators' process ended before they listened (%w): %s", err, strings.TrimSpace(string(b)))
		case <-deadline:
			_ = cmd.Process.Kill()
			return fmt.Errorf("the simulators did not listen within 30 s; see %s", filepath.Join(state, logFile))
		case <-time.After(50 * time.Millisecond):
		}
	}
	return printDevices(state, provider != "")
}

// printDevices says what runs and how to use it.
func printDevices(state string, rc bool) error {
	devs, err := readDevices(state)
	if err != nil {
		return err
	}
	fmt.Printf("simulated routers on 127.0.0.1 (PID %s in %s; make sim-down stops them):\n\n", pidText(state), state)
	for _, d := range devs {
		fmt.Printf("  %-12s %-9s %s:%d  ssh -p %d %s@%s (password %s)\n               %s\n", d.Name, d.Platform, d.Host, d.Port, d.Port, d.User, d.Host, d.Password, d.What)
	}
	fmt.Println("\nA provider block for them:")
	fmt.Println("\nprovider \"routerlab\" {")
	for _, d := range devs {
		fmt.Printf("  device {\n    name     = %q\n    platform = %q\n    host     = %q\n    port     = %d\n    username = %q\n    password = %q\n    host_key = %q\n", d.Name, d.Platform, d.Host, d.Port, d.User, d.Password, d.HostKey)
		if d.AdministratorPassword != "" {
			fmt.Printf("    administrator_password = %q\n", d.AdministratorPassword)
		}
		fmt.Println("  }")
	}
	fmt.Println("}")
	fmt.Println("\nThe seed examples against them:")
	if rc {
		fmt.Printf("\n  export TF_CLI_CONFIG_FILE=%s\n", filepath.Join(state, rcFile))
	}
	for _, ex := range []string{"rtx810-ipsec", "er6p-pppoe-offload", "rb750gr3-l2tp-ipsec"} {
		fmt.Printf("  (cd examples/labs/%s && terraform apply -var-file=%s)\n", ex, filepath.Join(state, ex+".tfvars"))
	}
	return nil
}

// down stops the serve process by the PID up recorded.
func down(state string) error {
	pid, err := readPID(state)
	if err != nil {
		return errNotRunning
	}
	defer os.Remove(filepath.Join(state, pidFile))
	if !alive(pid) {
		return nil
	}
	// The PID file may outlive its process (a reboot) and the number be
	// reused: only a simctl serve is stopped.
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !strings.Contains(string(cmdline), "serve\x00-state\x00"+state) {
		return fmt.Errorf("PID %d is not the simulators' process (%q): not stopped", pid, strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return err
	}
	for range 200 {
		if !alive(pid) {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("PID %d did not stop within 10 s", pid)
}

// show prints a simulator's configuration.
func show(state, name string) error {
	addr, err := os.ReadFile(filepath.Join(state, controlFile))
	if err != nil {
		return errNotRunning
	}
	resp, err := http.Get("http://" + strings.TrimSpace(string(addr)) + "/config/" + name)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", name, strings.TrimSpace(string(b)))
	}
	_, err = os.Stdout.Write(b)
	return err
}

func readPID(state string) (int, error) {
	b, err := os.ReadFile(filepath.Join(state, pidFile))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

func pidText(state string) string {
	pid, err := readPID(state)
	if err != nil {
		return "?"
	}
	return strconv.Itoa(pid)
}

// alive reports whether a process with pid exists (and is no zombie).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// Field 3, after the parenthesised name, is the state: Z is a zombie.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func readDevices(state string) ([]simDevice, error) {
	b, err := os.ReadFile(filepath.Join(state, readyFile))
	if err != nil {
		return nil, errNotRunning
	}
	var devs []simDevice
	if err := json.Unmarshal(b, &devs); err != nil {
		return nil, errors.Join(fmt.Errorf("%s is not what simctl writes", readyFile), err)
	}
	return devs, nil
}
