package server

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// openAPIDoc is the OpenAPI 3.1 document of every /api route, built from
// the route table and the Go types its routes take and answer
// (openapi_gen.go); TestOpenAPIDocumentIsCurrent fails when the committed
// file is stale.
//
//go:generate go run ./openapi/gen openapi/openapi.json
//go:embed openapi/openapi.json
var openAPIDoc []byte

func serveOpenAPI(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, "application/json", openAPIDoc)
}
