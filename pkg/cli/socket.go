package cli

import (
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/internal/safe"
)

// The owner socket lets the CLI work while `devhub serve` holds the bbolt
// lock. serve listens on <data_dir>/devhub.sock (mode 0600: whoever can open
// it owns the data anyway). A store-touching command first dials it; when a
// server answers, the command line is executed inside the server with the
// server's services, and its stdin/stdout/stderr and exit code travel over
// the connection. Commands are written once against Env and never know
// which way they ran.
//
// Wire format: gob-encoded frames. The client sends one request frame, then
// stdin frames when asked; the server sends hello, stdout, stderr, stdin
// requests and finally exit.

type frameKind uint8

const (
	frameHello frameKind = iota + 1
	frameRequest
	frameStdout
	frameStderr
	frameStdinRequest
	frameStdin
	frameStdinEOF
	frameExit
)

type frame struct {
	Kind   frameKind
	Data   []byte
	Code   int
	Args   []string
	Cwd    string
	InTTY  bool
	OutTTY bool
}

// helloTimeout bounds the wait for a server that accepted the connection
// but does not answer (for example one that is shutting down).
const helloTimeout = 2 * time.Second

// requestTimeout bounds the server's wait for the request frame: a client
// that connects and sends nothing does not hold a goroutine for good. (Later
// frames carry stdin, which may rightly take as long as a person typing.)
const requestTimeout = 10 * time.Second

// maxFrameBytes caps one frame on the wire. The largest real frame is a
// stdin chunk of 64 KiB or a command line; without a cap, gob allocates
// whatever length a frame announces (up to 1 GiB) before reading it.
const maxFrameBytes = 1 << 20

var errFrameTooBig = errors.New("owner socket: frame too large")

// frameLimitReader passes a gob stream through and refuses, before gob
// allocates anything for it, a message whose announced length is over max.
// gob precedes every message with its length as a gob unsigned integer: a
// single byte below 128, else a byte holding the negated count of the
// big-endian bytes that follow.
type frameLimitReader struct {
	r       io.Reader
	max     uint64
	left    uint64 // bytes of the current message not passed on yet
	pending []byte // the length prefix read but not passed on yet
	prefix  [9]byte
}

func newFrameLimitReader(r io.Reader, max uint64) *frameLimitReader {
	return &frameLimitReader{r: r, max: max}
}

func (f *frameLimitReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(f.pending) == 0 && f.left == 0 {
		if _, err := io.ReadFull(f.r, f.prefix[:1]); err != nil {
			return 0, err
		}
		n, size := uint64(f.prefix[0]), 1
		if f.prefix[0] >= 0x80 {
			extra := int(-int8(f.prefix[0]))
			if extra < 1 || extra > 8 {
				return 0, errFrameTooBig
			}
			if _, err := io.ReadFull(f.r, f.prefix[1:1+extra]); err != nil {
				return 0, err
			}
			n = 0
			for _, b := range f.prefix[1 : 1+extra] {
				n = n<<8 | uint64(b)
			}
			size += extra
		}
		if n > f.max {
			return 0, errFrameTooBig
		}
		f.left = n
		f.pending = f.prefix[:size]
	}
	if len(f.pending) > 0 {
		c := copy(p, f.pending)
		f.pending = f.pending[c:]
		return c, nil
	}
	if uint64(len(p)) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= uint64(n)
	return n, err
}

// errNoServer means no server answered on the socket; run locally.
var errNoServer = errors.New("no server on the owner socket")

// runRemote sends the command line to a running server. It returns
// errNoServer when nobody answers, otherwise the command's exit code.
func runRemote(cfg config.Config, env *Env, args []string) (int, error) {
	conn, err := net.DialTimeout("unix", cfg.SocketPath(), helloTimeout)
	if err != nil {
		return 0, errNoServer
	}
	defer conn.Close()
	enc, dec := gob.NewEncoder(conn), gob.NewDecoder(newFrameLimitReader(conn, maxFrameBytes))

	conn.SetDeadline(time.Now().Add(helloTimeout))
	var hello frame
	if err := dec.Decode(&hello); err != nil || hello.Kind != frameHello {
		return 0, errNoServer
	}
	conn.SetDeadline(time.Time{})
	if err := enc.Encode(frame{Kind: frameRequest, Args: args, Cwd: env.Cwd, InTTY: env.InTTY, OutTTY: env.OutTTY}); err != nil {
		return 0, fmt.Errorf("owner socket: %w", err)
	}
	buf := make([]byte, 64<<10)
	for {
		var f frame
		if err := dec.Decode(&f); err != nil {
			return 1, fmt.Errorf("lost the connection to the running server: %w", err)
		}
		switch f.Kind {
		case frameStdout:
			env.Out.Write(f.Data)
		case frameStderr:
			env.Err.Write(f.Data)
		case frameStdinRequest:
			n, rerr := env.In.Read(buf)
			if n > 0 {
				if err := enc.Encode(frame{Kind: frameStdin, Data: buf[:n]}); err != nil {
					return 1, err
				}
			}
			if rerr != nil || n == 0 {
				if err := enc.Encode(frame{Kind: frameStdinEOF}); err != nil {
					return 1, err
				}
			}
		case frameExit:
			return f.Code, nil
		}
	}
}

// ownerSocket serves CLI commands inside the server process.
type ownerSocket struct {
	ln   net.Listener
	path string
	svc  *services
	cfg  config.Config
	log  *slog.Logger
	wg   sync.WaitGroup
}

// listenOwnerSocket creates the socket. A socket file left by a crashed
// server is removed; one that still answers means another server runs.
func listenOwnerSocket(cfg config.Config, svc *services, log *slog.Logger) (*ownerSocket, error) {
	path := cfg.SocketPath()
	if c, err := net.DialTimeout("unix", path, 500*time.Millisecond); err == nil {
		c.Close()
		return nil, fmt.Errorf("another devhub server is already answering on %s", path)
	}
	_ = os.Remove(path)
	old := syscall.Umask(0o177) // the socket is created 0600 with no window
	ln, err := net.Listen("unix", path)
	syscall.Umask(old)
	if err != nil {
		return nil, fmt.Errorf("owner socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	s := &ownerSocket{ln: ln, path: path, svc: svc, cfg: cfg, log: log}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

func (s *ownerSocket) accept() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		safe.Go(s.log, "owner-socket command", func() {
			defer s.wg.Done()
			defer conn.Close()
			s.handle(conn)
		})
	}
}

// Close stops accepting, waits for running commands, removes the socket.
func (s *ownerSocket) Close() {
	s.ln.Close()
	s.wg.Wait()
	os.Remove(s.path)
}

// handle runs one caller's command (in safe.Go: a panic in a command is
// logged and ends only that command).
func (s *ownerSocket) handle(conn net.Conn) {
	fw := &frameWriter{enc: gob.NewEncoder(conn)}
	dec := gob.NewDecoder(newFrameLimitReader(conn, maxFrameBytes))
	if err := fw.send(frame{Kind: frameHello}); err != nil {
		return
	}
	conn.SetReadDeadline(time.Now().Add(requestTimeout))
	var req frame
	if err := dec.Decode(&req); err != nil || req.Kind != frameRequest {
		if errors.Is(err, errFrameTooBig) {
			s.log.Warn("owner socket: refused an oversized frame")
		}
		return
	}
	conn.SetReadDeadline(time.Time{})
	// One reader owns the connection: it hands stdin frames to the command
	// and, when the caller goes away (Ctrl-C, a killed script), cancels the
	// command's context so long work such as a big `file add` stops.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdin := make(chan frame, 1)
	go func() {
		defer cancel()
		defer close(stdin)
		for {
			var f frame
			if err := dec.Decode(&f); err != nil {
				return
			}
			if f.Kind == frameStdin || f.Kind == frameStdinEOF {
				stdin <- f
			}
		}
	}()
	env := &Env{
		In:     &remoteStdin{fw: fw, frames: stdin},
		Out:    &streamWriter{fw: fw, kind: frameStdout},
		Err:    &streamWriter{fw: fw, kind: frameStderr},
		Cwd:    req.Cwd,
		InTTY:  req.InTTY,
		OutTTY: req.OutTTY,
		cfg:    s.cfg,
		loaded: true,
		remote: true,
		svc:    s.svc,
		log:    s.log,
	}
	s.log.Info("owner socket command", slog.Any("args", req.Args))
	code := run(ctx, env, req.Args)
	fw.send(frame{Kind: frameExit, Code: code})
}

// frameWriter serialises frames from the command's goroutines.
type frameWriter struct {
	mu  sync.Mutex
	enc *gob.Encoder
}

func (w *frameWriter) send(f frame) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.enc.Encode(f)
}

type streamWriter struct {
	fw   *frameWriter
	kind frameKind
}

func (w *streamWriter) Write(p []byte) (int, error) {
	if err := w.fw.send(frame{Kind: w.kind, Data: append([]byte(nil), p...)}); err != nil {
		return 0, err
	}
	return len(p), nil
}

// remoteStdin reads the caller's stdin on demand, so a command that never
// reads stdin never blocks on it.
type remoteStdin struct {
	fw     *frameWriter
	frames <-chan frame
	buf    []byte
	eof    bool
}

func (r *remoteStdin) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		if err := r.fw.send(frame{Kind: frameStdinRequest}); err != nil {
			return 0, err
		}
		f, ok := <-r.frames
		if !ok {
			return 0, io.ErrUnexpectedEOF // the caller hung up
		}
		switch f.Kind {
		case frameStdin:
			r.buf = f.Data
		case frameStdinEOF:
			r.eof = true
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}
