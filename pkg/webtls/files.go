package webtls

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// fileCheckEvery bounds how often the certificate files are looked at:
// a handshake stats them at most this often, so a certificate swapped on
// disk is served within about this long without a restart.
const fileCheckEvery = time.Second

// fileCert is the owner's certificate and key, reloaded when either
// file's size or modification time changes. A pair that does not load
// (half written, key and certificate not matching) is logged and the
// previous one keeps serving.
type fileCert struct {
	certPath, keyPath string
	log               *slog.Logger

	mu        sync.Mutex
	cert      *tls.Certificate
	stamp     string
	checkedAt time.Time
}

func loadFileCert(certPath, keyPath string, log *slog.Logger) (*fileCert, error) {
	fc := &fileCert{certPath: certPath, keyPath: keyPath, log: log}
	stamp, err := fc.stampNow()
	if err != nil {
		return nil, err
	}
	c, err := readPair(certPath, keyPath)
	if err != nil {
		return nil, err
	}
	fc.cert, fc.stamp, fc.checkedAt = c, stamp, time.Now()
	return fc, nil
}

func (fc *fileCert) stampNow() (string, error) {
	var s string
	for _, p := range []string{fc.certPath, fc.keyPath} {
		fi, err := os.Stat(p)
		if err != nil {
			return "", errors.New("server.tls_files: a certificate or key file cannot be read")
		}
		s += fmt.Sprintf("%d.%d;", fi.Size(), fi.ModTime().UnixNano())
	}
	return s, nil
}

func readPair(certPath, keyPath string) (*tls.Certificate, error) {
	c, err := tls.LoadX509KeyPair(certPath, keyPath)
	if err != nil {
		return nil, fmt.Errorf("server.tls_files: %v", err)
	}
	if c.Leaf == nil {
		if c.Leaf, err = x509.ParseCertificate(c.Certificate[0]); err != nil {
			return nil, fmt.Errorf("server.tls_files: %v", err)
		}
	}
	return &c, nil
}

func (fc *fileCert) reloadIfChanged() {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if time.Since(fc.checkedAt) < fileCheckEvery {
		return
	}
	fc.checkedAt = time.Now()
	stamp, err := fc.stampNow()
	if err != nil || stamp == fc.stamp {
		return
	}
	c, err := readPair(fc.certPath, fc.keyPath)
	if err != nil {
		fc.log.Error("the changed certificate files do not load; the previous certificate keeps serving", slog.Any("err", err))
		return
	}
	fc.cert, fc.stamp = c, stamp
	fc.log.Info("certificate reloaded", slog.Time("not_after", c.Leaf.NotAfter))
}

func (fc *fileCert) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	fc.reloadIfChanged()
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return fc.cert, nil
}

func (fc *fileCert) leaf() *x509.Certificate {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return fc.cert.Leaf
}
