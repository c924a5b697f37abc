package main

import (
	"embed"
	"io/fs"
)

// dist is the Vite build of frontend/. A placeholder index.html is
// committed so a plain `go build` works before the frontend is built;
// `make build` replaces it with the real app.
//
//go:embed all:frontend/dist
var dist embed.FS

// frontendFS is the build's root (index.html, assets/...).
func frontendFS() fs.FS {
	sub, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // the embed pattern above guarantees the directory
	}
	return sub
}
