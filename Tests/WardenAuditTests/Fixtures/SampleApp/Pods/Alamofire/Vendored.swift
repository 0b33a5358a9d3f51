// Vendored code is skipped by default: this would otherwise be a finding.
let web = UIWebView()
