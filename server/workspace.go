package server

import "github.com/labstack/echo/v4"

// registerWorkspace adds the signed-in maker's routes: printers, photos,
// issues (issue 6 of the tracker).
func (s *Server) registerWorkspace(api *echo.Group, d Deps) {}
