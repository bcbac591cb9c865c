// Command bench-events measures the live event stream of a running devhub: it opens N streams
// (GET /api/events) of one account on 127.0.0.1, posts chat messages and times each one's
// arrival at every stream (p50/p99/max), and reads the server's RSS from /proc: idle, with the
// streams open (memory per idle stream) and after they closed. Run by .ci/bench-events.sh.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

func rssKB(pid int) int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			return n
		}
	}
	return -1
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "server address")
	token := flag.String("token", "", "access token")
	n := flag.Int("n", 1000, "streams")
	msgs := flag.Int("messages", 5, "chat messages to time")
	pid := flag.Int("pid", 0, "server pid (for RSS)")
	settle := flag.Duration("settle", 60*time.Second, "how long to watch RSS fall after the streams close")
	flag.Parse()

	idle := rssKB(*pid)
	var mu sync.Mutex
	arrivals := map[string][]time.Time{}
	conns := make([]net.Conn, 0, *n)
	var ready sync.WaitGroup
	for i := 0; i < *n; i++ {
		c, err := net.Dial("tcp", *addr)
		if err != nil {
			fmt.Fprintln(os.Stderr, "dial:", err)
			os.Exit(1)
		}
		fmt.Fprintf(c, "GET /api/events HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nAccept: text/event-stream\r\n\r\n", *addr, *token)
		conns = append(conns, c)
		ready.Add(1)
		go func(c net.Conn) {
			r := bufio.NewReaderSize(c, 4096)
			status, err := r.ReadString('\n')
			if err != nil || !strings.Contains(status, " 200 ") {
				fmt.Fprintln(os.Stderr, "stream refused:", strings.TrimSpace(status), err)
				os.Exit(1)
			}
			once := sync.OnceFunc(ready.Done)
			for {
				line, err := r.ReadBytes('\n')
				if err != nil {
					return
				}
				if bytes.Contains(line, []byte("connected")) {
					once()
				}
				if i := bytes.Index(line, []byte(`"text":"bench-`)); i >= 0 {
					at := time.Now()
					key := string(line[i+8 : i+8+bytes.IndexByte(line[i+8:], '"')])
					mu.Lock()
					arrivals[key] = append(arrivals[key], at)
					mu.Unlock()
				}
			}
		}(c)
	}
	ready.Wait()
	time.Sleep(2 * time.Second) // let the server's allocations settle before reading RSS
	open := rssKB(*pid)
	fmt.Printf("streams: %d open; server RSS idle %.1f MiB, with the streams %.1f MiB (+%.1f MiB, %.1f KiB per idle stream)\n",
		*n, float64(idle)/1024, float64(open)/1024, float64(open-idle)/1024, float64(open-idle)/float64(*n))

	peak := open
	for m := 0; m < *msgs; m++ {
		key := fmt.Sprintf("bench-%d-%d", m, time.Now().UnixNano())
		body := strings.NewReader(fmt.Sprintf(`{"text":%q}`, key))
		req, _ := http.NewRequest(http.MethodPost, "http://"+*addr+"/api/chat/messages", body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+*token)
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusCreated {
			fmt.Fprintln(os.Stderr, "post:", err, resp)
			os.Exit(1)
		}
		resp.Body.Close()
		deadline := time.Now().Add(30 * time.Second)
		var got []time.Time
		for time.Now().Before(deadline) {
			mu.Lock()
			got = append([]time.Time(nil), arrivals[key]...)
			mu.Unlock()
			if len(got) >= *n {
				break
			}
			time.Sleep(time.Millisecond)
		}
		lat := make([]float64, len(got))
		for i, at := range got {
			lat[i] = float64(at.Sub(start).Microseconds()) / 1000
		}
		sort.Float64s(lat)
		pct := func(p float64) float64 {
			if len(lat) == 0 {
				return -1
			}
			return lat[min(len(lat)-1, int(p*float64(len(lat))))]
		}
		fmt.Printf("message %d: reached %d/%d streams; p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", m+1, len(lat), *n, pct(0.5), pct(0.99), pct(1))
		peak = max(peak, rssKB(*pid))
		time.Sleep(500 * time.Millisecond)
	}
	for _, c := range conns {
		c.Close()
	}
	fmt.Printf("server RSS peak seen %.1f MiB (+%.1f MiB over idle)\n", float64(peak)/1024, float64(peak-idle)/1024)
	start := time.Now()
	for time.Since(start) < *settle {
		time.Sleep(10 * time.Second)
		fmt.Printf("  %2.0f s after the streams closed: RSS %.1f MiB\n", time.Since(start).Seconds(), float64(rssKB(*pid))/1024)
	}
}
