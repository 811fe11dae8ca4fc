module github.com/goten-ml/goten

go 1.23
