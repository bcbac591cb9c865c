package server

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// filesWithOnePNG is a fresh file cloud holding one PNG (id 1), uploaded
// by the user.
func filesWithOnePNG(t *testing.T) *testApp {
	fa := newFilesTestApp(t, 1<<20)
	fa.upload(t, filePart("a.png", testPNG))
	return fa.testApp
}

// The file cloud's reads, each for GET and (generated) HEAD alike.
func TestFileReadScenarios(t *testing.T) {
	png := string(testPNG)
	guard := map[string]string{"X-Content-Type-Options": "nosniff", "Content-Security-Policy": userFileCSP}
	size := strconv.Itoa(len(testPNG))
	runScenarios(t, filesWithOnePNG, []apiScenario{
		{URL: "/api/files", ExpectedStatus: 200, ExpectedContent: []string{`"a.png"`}},
		{URL: "/api/api/files", ExpectedStatus: 200, ExpectedContent: []string{`"a.png"`}},
		{URL: "/api/files/1", ExpectedStatus: 200,
			ExpectedContent: []string{`"id":1`, `"originalName":"a.png"`, `"mimetype":"image/png"`, `"type":"image"`, `"size":` + size}},
		{URL: "/api/files/1/download", ExpectedStatus: 200, ExpectedContent: []string{png}, ExpectedHeaders: guard},
		{URL: "/api/api/files/1/download", ExpectedStatus: 200, ExpectedContent: []string{png}},
		{URL: "/api/files/stream/1", ExpectedStatus: 200, ExpectedContent: []string{png},
			ExpectedHeaders: map[string]string{"Content-Type": "image/png", "Accept-Ranges": "bytes"}},
		{Name: "range", URL: "/api/files/1/download", Headers: map[string]string{"Range": "bytes=0-7"}, ExpectedStatus: 206,
			ExpectedHeaders: map[string]string{"Content-Range": "bytes 0-7/" + size, "Content-Length": "8"}},
		{Name: "range past the end", URL: "/api/files/1/download", Headers: map[string]string{"Range": "bytes=" + size + "-"},
			ExpectedStatus: 416, ExpectedHeaders: map[string]string{"Content-Range": "bytes */" + size}},
		{URL: "/api/files/999", ExpectedStatus: 404},
		{URL: "/api/files/999/download", ExpectedStatus: 404, ExpectedHeaders: guard},
		{URL: "/api/files/stream/999", ExpectedStatus: 404, ExpectedHeaders: guard},
		{Method: "DELETE", URL: "/api/files/1", ExpectedStatus: 401},
		{Method: "DELETE", URL: "/api/files/1", Token: "nope", ExpectedStatus: 401},
		{Method: "DELETE", URL: "/api/files/1", Token: otherToken, ExpectedStatus: 403},
		{Method: "DELETE", URL: "/api/files/1", Token: adminToken, ExpectedStatus: 204},
		{Method: "DELETE", URL: "/api/api/files/999", Token: adminToken, ExpectedStatus: 404},
	})
}

// TestFileBadIDs: no id or path trick reaches a file (ours or one outside
// the uploads directory); each is a JSON error, and the user-file routes'
// errors carry their guard headers too.
func TestFileBadIDs(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "x")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	json := map[string]string{"Content-Type": "application/json; charset=utf-8"}
	guarded := map[string]string{"Content-Type": "application/json; charset=utf-8",
		"X-Content-Type-Options": "nosniff", "Content-Security-Policy": userFileCSP}
	const badID, noRoute = "file id must be a positive number", "no such API endpoint"
	never := []string{"secret", string(testPNG[:8])}
	var scenarios []apiScenario
	for _, c := range []struct {
		path    string
		status  int
		message string
		headers map[string]string
	}{
		{"/api/files/1/../../x", 404, noRoute, json},
		{"/api/files/%2e%2e%2f", 400, badID, json},
		{"/api/files/%2e%2e%2fx/download", 400, badID, guarded},
		{"/api/files/1%2f..%2f..%2fx", 400, badID, json},
		{"/api/files/stream/%2e%2e%2f%2e%2e%2fx", 400, badID, guarded},
		{"/api/files/stream/1%2F..%2F..%2Fx", 400, badID, guarded},
		{"/api/files/..%5c..%5cx/download", 400, badID, guarded},
		{"/api/files/abc", 400, badID, json},
		{"/api/files/abc/download", 400, badID, guarded},
		{"/api/files/-1", 400, badID, json},
		{"/api/files/+1", 400, badID, json},
		{"/api/files/0", 400, badID, json},
		{"/api/files/1.0", 400, badID, json},
		{"/api/files/99999999999999999999999", 400, badID, json},
		{"/api/files/stream/" + secret, 404, noRoute, json},
		{"/api/files/999/download", 404, "not found", guarded},
		{"/api/files/stream/999", 404, "not found", guarded},
	} {
		scenarios = append(scenarios, apiScenario{URL: c.path, ExpectedStatus: c.status,
			ExpectedContent: []string{c.message}, NotExpectedContent: never, ExpectedHeaders: c.headers})
	}
	runScenarios(t, filesWithOnePNG, scenarios)
}
