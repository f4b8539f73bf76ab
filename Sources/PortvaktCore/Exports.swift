// The wire types the client SDK shares with the server (PKCE, base64url, device keys and
// assertions) live in PortvaktProtocol; everything that imports PortvaktCore sees them.
@_exported import PortvaktProtocol
