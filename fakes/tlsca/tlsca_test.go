package tlsca

import (
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestIssuedCertificateIsTrustedThroughTheCA(t *testing.T) {
	ca, err := New("test")
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue("localhost", "127.0.0.1", "::1")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	defer srv.Close()
	trusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
	resp, err := trusting.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	if resp, err := trusting.Get("https://localhost:" + port); err != nil {
		t.Errorf("localhost: %v", err)
	} else {
		resp.Body.Close()
	}
	if _, err := http.Get(srv.URL); err == nil {
		t.Error("a client without the CA trusted the certificate")
	}
}
